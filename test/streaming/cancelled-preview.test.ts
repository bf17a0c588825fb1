/**
 * Issue 21, item 7: a live preview cancelled by an `error` event or an abort stays on screen
 * with its last text. The receipt lists it (its id, kind text), and `undelivered` holds only
 * what the person has not seen: resending it never shows a word twice.
 */
import { checkHistory } from "@outbox/conformance";
import {
  type AgentEvent,
  AgentRunError,
  type AgentRunReceipt,
  deliverAgentRun,
  type EmulatedChannel,
} from "@outbox/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { platforms, until } from "./channels.js";

/** An edit interval no test reaches: after its first text the preview changes only when told. */
const HELD = { previewIntervalMs: 600_000 };

/** What the run's `AgentRunError` (its last failure) left undelivered. */
function undelivered(receipt: AgentRunReceipt): AgentRunError["undelivered"] {
  const error = receipt.failures.at(-1)?.error;
  expect(error).toBeInstanceOf(AgentRunError);
  return (error as AgentRunError).undelivered;
}

describe.each(platforms)("a cancelled live preview through the %s emulator", (_name, open) => {
  let channel: EmulatedChannel;
  beforeEach(async () => {
    channel = await open();
  });
  afterEach(async () => {
    await channel.close();
  });

  /** The one text message the channel shows. */
  const shown = (): string => {
    const texts = channel.observe().filter((message) => message.kind === "text");
    expect(texts.length).toBe(1);
    return texts[0]?.text ?? "";
  };

  /**
   * The run's history judged by the one checker: part 0 (the preview, `shownMarker`) is on
   * screen and listed, part 1 (`unseenMarker`) is not on screen and named in the receipt.
   */
  function expectHistoryHolds(receipt: AgentRunReceipt, shownMarker: string, unseenMarker: string): void {
    const verdict = checkHistory({
      observed: { [channel.target.to]: channel.observe() },
      deliveries: [{ chat: channel.target.to, parts: [shownMarker, unseenMarker], receipt }],
      reached: () => true,
    });
    expect(verdict.violations).toEqual([]);
    expect(verdict.counts).toMatchObject({ delivered: 1, failed: 1 });
  }

  /** The receipt's message is the preview on screen: a reply to its id lands on it (the emulator checks the id exists). */
  async function expectPreviewIs(id: string | undefined): Promise<void> {
    expect(id).toBeDefined();
    expect(id).not.toBe(channel.target.currentMessageId);
    const ack = await channel.adapter.send({ text: "ack", replyToId: id as string }, channel.target);
    expect(ack.ok).toBe(true);
    expect(channel.observe().at(-1)?.replyTo).toBe(id);
  }

  /** A preview run: `first`, then (once the preview shows it) `rest`, then an `error` event. */
  function failAfter(first: string, rest: string): Promise<AgentRunReceipt> {
    async function* events(): AsyncGenerator<AgentEvent> {
      yield { type: "text", text: first };
      await until(() => channel.observe().length > 0);
      yield { type: "text", text: rest };
      yield { type: "error", error: new Error("model connection lost") };
    }
    return deliverAgentRun(events(), channel.adapter, channel.target, { mode: "preview", ...HELD }).receipt;
  }

  it("error before a paragraph completes: the receipt lists the preview, undelivered is the rest", async () => {
    const first = "The answer is forty-two, ";
    const rest = "because six times seven makes it.";
    const receipt = await failAfter(first, rest);
    expect(receipt).toMatchObject({ ok: false, end: "error", mode: "preview" });
    expect(receipt.messages).toEqual([{ id: expect.any(String), kind: "text", part: 0 }]);
    const left = undelivered(receipt).text;
    // What the preview shows and what is undelivered make the whole reply, nothing twice.
    expect(shown()).toBe(first.trim());
    expect(left).toBe(rest);
    expectHistoryHolds(receipt, "forty-two", "seven");
    await expectPreviewIs(receipt.messages[0]?.id);
  });

  it("abort: the receipt lists the preview, undelivered is what the preview never showed", async () => {
    const controller = new AbortController();
    const first = "Step one is done.\n\nStep two is ";
    const rest = "halfway there";
    async function* events(): AsyncGenerator<AgentEvent> {
      yield { type: "text", text: first };
      await until(() => channel.observe().length > 0);
      yield { type: "text", text: rest };
      controller.abort();
      yield { type: "text", text: " and never shown" };
      yield { type: "done" };
    }
    const receipt = await deliverAgentRun(events(), channel.adapter, channel.target, {
      mode: "preview",
      signal: controller.signal,
      ...HELD,
    }).receipt;
    expect(receipt).toMatchObject({ ok: false, end: "aborted" });
    expect(receipt.messages).toEqual([{ id: expect.any(String), kind: "text", part: 0 }]);
    expect(shown().replace(/\s+/g, " ")).toBe("Step one is done. Step two is");
    expect(undelivered(receipt).text).toBe(rest);
    expectHistoryHolds(receipt, "Step one", "halfway");
    await expectPreviewIs(receipt.messages[0]?.id);
  });

  it.each([
    [
      "a MEDIA: line the preview hid is media not sent",
      "Here is the chart:\nMEDIA:./image.png\nIt shows gro",
      "wth.",
      { text: "wth.", mediaUrls: ["./image.png"] },
    ],
    [
      "a last line that may become a directive was not shown",
      "Here is the chart:\nMEDIA:./ima",
      "ge.png\nIt shows growth.",
      { text: "MEDIA:./image.png\nIt shows growth.", mediaUrls: [] },
    ],
  ])("error: %s, so it is undelivered", async (_case, first, rest, expected) => {
    const receipt = await failAfter(first, rest);
    expect(receipt.messages).toEqual([{ id: expect.any(String), kind: "text", part: 0 }]);
    expect(undelivered(receipt)).toMatchObject(expected);
    expect(channel.observe().map((message) => message.kind)).toEqual(["text"]);
  });

  it("LivePreview.cancel() says which message stays on screen and what it shows", async () => {
    const preview = channel.adapter.preview?.(channel.target, { intervalMs: HELD.previewIntervalMs });
    if (preview === undefined) throw new Error("the adapter has no preview");
    preview.update("Thinking about **it**");
    await until(() => channel.observe().length > 0);
    preview.update("Thinking about **it** some more");
    const left = await preview.cancel();
    expect(left).toEqual({
      message: { id: expect.any(String), kind: "text", part: 0 },
      markdown: "Thinking about **it**",
      truncated: false,
    });
    expect(shown()).toBe("Thinking about it");
    await expectPreviewIs(left.message?.id);
  });
});
