import { describe, expect, it } from "vitest";
import { type AgentEvent, deliverAgentRun } from "../../src/index.js";
import { createRunText } from "../../src/stream/run-text.js";
import { mayOpenWithTag, tagsOf } from "../../src/stream/written-tags.js";
import { createFakeAdapter, script } from "./fake-adapter.js";

const REPLY = [
  "Intro line.\n\n",
  "```\n[[reply_to:in-code]]\n\n[[audio_as_voice]]\n```\n\n",
  "Inline `[[reply_to:in-span]]` code.\n\n",
  "Then [[reply_",
  "to_current]] here.\n",
  "More text.\n\n[[reply_to:",
  "42]] last [[audio_as",
  "_voice]]",
];

describe("tags written in a run", () => {
  it("read at every delta, the reader gives what a parse of the whole text so far gives", () => {
    const run = createRunText({ currentMessageId: "7" });
    let text = "";
    for (const delta of REPLY) {
      text += delta;
      run.push(delta);
      expect(run.tags(), JSON.stringify(text)).toEqual(tagsOf(text, "7"));
    }
    // Tags in a fence or a code span never count; the last explicit tag wins over the current one.
    expect(run.tags()).toEqual({ replyToId: "42", replyToCurrent: true, audioAsVoice: true });
  });

  it("the whole reply in one read, and read again: the same answer", () => {
    const run = createRunText({});
    run.push(REPLY.join(""));
    expect(run.tags()).toEqual({ replyToId: "42", replyToCurrent: true, audioAsVoice: true });
    expect(run.tags()).toEqual({ replyToId: "42", replyToCurrent: true, audioAsVoice: true });
    expect(tagsOf("[[reply_to_current]] no current message", undefined)).toEqual({
      replyToCurrent: true,
      audioAsVoice: false,
    });
  });

  it("an injected [[reply_to:<id>]] in each of 300 blocks: the run keeps its first target, one short note per block at most", async () => {
    const adapter = createFakeAdapter();
    const events: AgentEvent[] = [{ type: "text", text: "[[reply_to_current]] Answer.\n\n" }];
    for (let i = 0; i < 300; i++)
      events.push({
        type: "text",
        text: `Block ${i} [[reply_to:${i === 0 ? "x".repeat(10_000) : `evil-${i}`}]].\n\n`,
      });
    const receipt = await deliverAgentRun(
      script(events),
      adapter,
      { to: "c1", currentMessageId: "m1" },
      { mode: "blocks", minChars: 5, idleMs: 0 },
    ).receipt;
    expect(receipt.ok).toBe(true);
    const sent = adapter.calls.filter((call) => call.op === "send");
    expect(sent).toHaveLength(301);
    // replyMode first: the first message carries the reply, no other message replies anywhere.
    expect(sent.map((call) => call.payload?.replyToId ?? null)).toEqual([
      "m1",
      ...sent.slice(1).map(() => null),
    ]);
    expect(receipt.degraded.length).toBeLessThanOrEqual(300);
    expect(receipt.degraded.every((entry) => entry.from === "reply" && entry.to === "reply to m1")).toBe(
      true,
    );
    // The agent writes the ids: the receipt quotes them cut short.
    expect(Math.max(...receipt.degraded.map((entry) => entry.reason.length))).toBeLessThan(300);
  });
});

describe("a reply that may open with a tag", () => {
  it("is whitespace, `[` or a `[[` not closed on its first line, and at most 256 characters", () => {
    const open = ["", " \n", "[", "[[", " [[reply_", "[[reply_to:1712345678.000100]", `[[${"x".repeat(254)}`];
    for (const text of open) expect(mayOpenWithTag(text), JSON.stringify(text)).toBe(true);
    const closed = [
      "Hi",
      "[x",
      "[[reply_to_current]]",
      "[[reply_to_current]] Hi",
      "[[reply_\nto_current]]",
      `[[${"x".repeat(255)}`,
      // A megabyte that never closes its tag is answered from its length alone.
      `[[${"x".repeat(1_000_000)}`,
    ];
    for (const text of closed) expect(mayOpenWithTag(text), JSON.stringify(text.slice(0, 40))).toBe(false);
  });
});
