/**
 * Reply targets in a streamed run, through the Telegram and Slack emulators in every mode:
 * a reply tag anywhere in the run, and the run-level choice (`replyToCurrent`, `replyToId`,
 * `replyMode`), reach every message the run should reply with; on Slack a run stays in one
 * thread; what cannot be honoured is a degradation in the receipt.
 */
import { type AgentEvent, type AgentRunProgress, deliverAgentRun, type StreamMode } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { eachChannel, fixturesDir, platforms, png, textRun as run, until } from "./channels.js";

const MODES: StreamMode[] = ["final", "blocks", "preview"];
const channels = platforms.filter(([name]) => name === "telegram" || name === "slack");

/** Three paragraphs that `blocks` mode (minChars 10) sends as three messages. */
const paragraphs = ["First, the revenue grew.\n\n", "Second, costs fell.\n\n", "Third, margins rose."];

/** The run's note that `[[reply_to_current]]` named no message, on `part`. */
const noCurrent = (part: number | undefined) => ({
  part,
  from: "reply",
  to: "none",
  reason: expect.stringContaining("set target.currentMessageId"),
});

describe.each(channels)("reply targets of a streamed run through the %s emulator", (name, open) => {
  const channel = eachChannel(open);
  const current = (): string => channel.target.currentMessageId as string;
  const options = (mode: StreamMode) => ({ mode, minChars: 10, idleMs: 0 });
  /** What each message replies to (Slack: its thread), in order. */
  const replies = (): Array<string | undefined> => channel.observe().map((message) => message.replyTo);

  it.each(MODES)("%s: a [[reply_to_current]] after the first text makes the reply a reply", async (mode) => {
    const gate: Record<number, () => Promise<void>> =
      mode === "preview" ? { 1: () => until(() => channel.observe().length === 1) } : {};
    const delivery = deliverAgentRun(
      run(["Revenue grew 12%.", " [[reply_to_current]]"], gate),
      channel.adapter,
      channel.target,
      options(mode),
    );
    const receipt = await channel.settled(delivery.receipt);
    expect(receipt.ok, JSON.stringify(receipt.failures)).toBe(true);
    expect(channel.observe().map((message) => message.text)).toEqual(["Revenue grew 12%."]);
    expect(replies()).toEqual([current()]);
    if (mode === "preview") {
      // The preview went out before the tag: it was replaced by a reply, and the receipt says so.
      expect(receipt.previewReplaced).toEqual({
        preview: "deleted",
        reason: expect.stringMatching(/reply tag came after/),
      });
      const progress = [];
      for await (const item of delivery) progress.push(item.type);
      expect(progress).toContain("preview-replaced");
    }
    expect(receipt.degraded).toEqual([]);
  });

  it.each(MODES)("%s: a tag in the first paragraph keeps the whole run together", async (mode) => {
    const texts = [`[[reply_to_current]] ${paragraphs[0]}`, ...paragraphs.slice(1)];
    const receipt = await channel.settled(
      deliverAgentRun(run(texts), channel.adapter, channel.target, options(mode)).receipt,
    );
    expect(receipt.ok, JSON.stringify(receipt.failures)).toBe(true);
    const seen = replies();
    expect(seen.length).toBe(mode === "blocks" ? 3 : 1);
    // Slack: every message in the reply's thread; elsewhere the run's first message quotes it.
    expect(seen).toEqual(seen.map((_, index) => (name === "slack" || index === 0 ? current() : undefined)));
  });

  it.each(MODES)(
    "%s: [[reply_to_current]] with no current message goes without a reply, said once in the receipt",
    async (mode) => {
      const texts = [`[[reply_to_current]] ${paragraphs[0]}`, ...paragraphs.slice(1)];
      const receipt = await channel.settled(
        deliverAgentRun(run(texts), channel.adapter, { to: channel.target.to }, options(mode)).receipt,
      );
      expect(receipt.ok, JSON.stringify(receipt.failures)).toBe(true);
      expect(replies().every((reply) => reply === undefined)).toBe(true);
      expect(receipt.degraded).toEqual([noCurrent(receipt.messages[0]?.part)]);
    },
  );

  it("blocks: [[reply_to_current]] with no current message after the last block: said on the last message", async () => {
    const texts = [...paragraphs, " [[reply_to_current]]"];
    const receipt = await channel.settled(
      deliverAgentRun(run(texts), channel.adapter, { to: channel.target.to }, options("blocks")).receipt,
    );
    expect(receipt.messages).toHaveLength(3);
    expect(receipt.degraded).toEqual([noCurrent(receipt.messages[2]?.part)]);
  });

  it("blocks: a tag after the first blocks went replies from there on; the receipt names the blocks sent before", async () => {
    const texts = [...paragraphs.slice(0, 2), `${paragraphs[2]} [[reply_to_current]]`];
    const receipt = await channel.settled(
      deliverAgentRun(run(texts), channel.adapter, channel.target, options("blocks")).receipt,
    );
    expect(receipt.ok).toBe(true);
    expect(replies()).toEqual([undefined, undefined, current()]);
    expect(receipt.degraded).toEqual(
      receipt.messages.slice(0, 2).map((message) => ({
        part: message.part,
        from: "reply",
        to: "none",
        reason: expect.stringContaining(
          `message ${message.id} went out before the agent wrote its reply tag`,
        ),
      })),
    );
  });

  it("blocks: a second tag naming another message is reported once; the run keeps its first target", async () => {
    const texts = [
      `[[reply_to_current]] ${paragraphs[0]}`,
      `${paragraphs[1]} [[reply_to:999]]`,
      paragraphs[2] as string,
    ];
    const receipt = await channel.settled(
      deliverAgentRun(run(texts), channel.adapter, channel.target, options("blocks")).receipt,
    );
    expect(receipt.ok).toBe(true);
    expect(replies()).toEqual([
      current(),
      name === "slack" ? current() : undefined,
      name === "slack" ? current() : undefined,
    ]);
    expect(receipt.degraded).toEqual([
      {
        part: 1,
        from: "reply",
        to: `reply to ${current()}`,
        reason: expect.stringMatching(/naming message 999 came after the run chose/),
      },
    ]);
  });

  it.each(MODES)("%s: replyToCurrent replies with the run, without any tag", async (mode) => {
    const receipt = await channel.settled(
      deliverAgentRun(run(paragraphs), channel.adapter, channel.target, {
        ...options(mode),
        replyToCurrent: true,
      }).receipt,
    );
    expect(receipt.ok, JSON.stringify(receipt.failures)).toBe(true);
    const seen = replies();
    expect(seen.length).toBe(mode === "blocks" ? 3 : 1);
    expect(seen).toEqual(seen.map((_, index) => (name === "slack" || index === 0 ? current() : undefined)));
  });

  it.each(MODES)("%s: replyMode all puts the reply on every message", async (mode) => {
    const receipt = await channel.settled(
      deliverAgentRun(run(paragraphs), channel.adapter, channel.target, {
        ...options(mode),
        replyToCurrent: true,
        replyMode: "all",
      }).receipt,
    );
    expect(receipt.ok).toBe(true);
    expect(replies()).toEqual(replies().map(() => current()));
  });

  it.each(MODES)("%s: replyToId null beats the agent's tags", async (mode) => {
    const receipt = await channel.settled(
      deliverAgentRun(
        run([`[[reply_to_current]] ${paragraphs[0]}`, paragraphs[1] as string]),
        channel.adapter,
        channel.target,
        { ...options(mode), replyToId: null },
      ).receipt,
    );
    expect(receipt.ok).toBe(true);
    expect(replies().every((reply) => reply === undefined)).toBe(true);
    expect(receipt.degraded).toEqual([]);
  });
});

describe("reply options are checked before any event is read", () => {
  it("replyToCurrent needs target.currentMessageId; replyMode must be known", async () => {
    const [, open] = channels[0] as (typeof channels)[number];
    const channel = await open();
    try {
      expect(() =>
        deliverAgentRun(
          run(["x"]),
          channel.adapter,
          { to: channel.target.to },
          {
            replyToCurrent: true,
            replyMode: "sometimes" as "first",
          },
        ),
      ).toThrow(/replyMode must be first, all or off; replyToCurrent needs target\.currentMessageId/);
    } finally {
      await channel.close();
    }
  });
});

describe.each(channels)("a preview replaced at settle through the %s emulator", (_name, open) => {
  it("settling into a reply that opens with media deletes the preview: progress and receipt say so", async () => {
    const channel = await open();
    try {
      async function* events(): AsyncGenerator<AgentEvent> {
        yield { type: "text", text: "Drawing the chart now." };
        await until(() => channel.observe().length === 1);
        yield { type: "done", result: { text: "", media: [png.path] } };
      }
      const delivery = deliverAgentRun(events(), channel.adapter, channel.target, {
        mode: "preview",
        workspaceDir: fixturesDir,
      });
      const progress: AgentRunProgress[] = [];
      for await (const item of delivery) progress.push(item);
      const receipt = await delivery.receipt;
      expect(receipt.ok, JSON.stringify(receipt.failures)).toBe(true);
      expect(channel.observe().map((message) => message.kind)).toEqual(["image"]);
      expect(receipt.previewReplaced).toEqual({
        preview: "deleted",
        reason: expect.stringMatching(/opens with media/),
      });
      expect(receipt.degraded).toEqual([]);
      expect(progress).toContainEqual(
        expect.objectContaining({
          type: "preview-replaced",
          preview: "deleted",
          reason: expect.stringMatching(/media/),
        }),
      );
    } finally {
      await channel.close();
    }
  });
});
