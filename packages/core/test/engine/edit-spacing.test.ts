/**
 * The least interval between edits of one message is the pacer's: an edit part waits for it
 * like any part waits for the rate limits, and a live preview keeps no timer of its own.
 */
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../src/engine/clock.js";
import { createPacer } from "../../src/engine/pacer.js";
import { previewHarness } from "../preview/support.js";

describe("edit spacing in the pacer", () => {
  it("spaces an edit from the message's last change, or its last look when asked", async () => {
    const clock = createManualClock();
    const pacer = createPacer([], clock);
    const at = async (work: Promise<void>) => {
      await clock.run(work);
      return clock.now();
    };
    // A message never seen waits for nothing.
    expect(await at(pacer.spaced("chat\u0000m1", 1000))).toBe(0);
    pacer.changed("chat\u0000m1");
    await clock.advance(300);
    expect(await at(pacer.spaced("chat\u0000m1", 1000))).toBe(1000);
    pacer.looked("chat\u0000m1");
    await clock.advance(200);
    // The last change counts for a plain edit; the last look too for a preview's update.
    expect(await at(pacer.spaced("chat\u0000m1", 1000))).toBe(1200);
    expect(await at(pacer.spaced("chat\u0000m1", 1000, undefined, true))).toBe(2000);
    // Other messages are not held.
    expect(await at(pacer.spaced("chat\u0000m2", 1000))).toBe(2000);
  });

  it("an aborted wait rejects with the signal's reason", async () => {
    const clock = createManualClock();
    const pacer = createPacer([], clock);
    pacer.changed("k");
    const control = new AbortController();
    const waiting = pacer.spaced("k", 1000, control.signal);
    control.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
  });

  it("a preview's edits keep the interval from the message's last change, with no timer of its own", async () => {
    const h = previewHarness({ minIntervalMs: 1000 });
    const preview = h.adapter.preview?.({ to: "chat" }, { intervalMs: 1500 });
    if (preview === undefined) throw new Error("no preview");
    preview.update("one");
    await h.clock.advance(0);
    preview.update("one two");
    await h.clock.advance(700);
    // Asked again before the interval: the newer text replaces the older on its way.
    preview.update("one two three");
    await h.clock.advance(900);
    const receipt = await h.clock.run(preview.settle({ text: "one two three four" }));
    expect(receipt.ok).toBe(true);
    expect(
      h.calls.map((call) => [call.op.type, call.at, "text" in call.op ? call.op.text.text : ""]),
    ).toEqual([
      ["text", 0, "one"],
      ["edit", 1500, "one two three"],
      // The settle's edit is spaced by the platform's interval from the last edit.
      ["edit", 2500, "one two three four"],
    ]);
  });
});
