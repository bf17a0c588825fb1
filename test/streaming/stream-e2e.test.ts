import {
  type AgentEvent,
  AgentRunError,
  type AgentRunProgress,
  createManualClock,
  deliverAgentRun,
  type EmulatedChannel,
} from "@outbox/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixturesDir, jpeg, platforms, png, until, view } from "./channels.js";

async function* script(
  events: AgentEvent[],
  gates: Record<number, Promise<void>> = {},
): AsyncGenerator<AgentEvent> {
  for (const [index, event] of events.entries()) {
    await gates[index];
    yield event;
  }
}

/** A reply streamed in preview mode: two paragraphs and a MEDIA line. */
const previewed = [
  "The **answer** is ",
  "forty-two.\n\n",
  "Here is why: ",
  "it is the product of six and seven.\n",
  `MEDIA:${png.path}\n`,
];

const para1 = "Here is the **quarterly** summary you asked for.";
const para2 = "And the chart, drawn by the tool:";

/** A run with interleaved media and a tool that produces the very file the final reply names. */
const interleaved = (): AgentEvent[] => [
  { type: "text", text: `${para1.slice(0, 20)}` },
  { type: "text", text: `${para1.slice(20)}\n\n` },
  { type: "media", media: { mimeType: "image/jpeg", filePath: jpeg.path, fileName: "photo.jpg" } },
  { type: "tool_use", toolName: "chart" },
  { type: "tool_result", toolName: "chart", media: [png.path] },
  { type: "text", text: `${para2}\nMEDIA:${png.path}\n` },
  { type: "done" },
];

describe.each(platforms)("deliverAgentRun through the %s emulator", (_name, open) => {
  let channel: EmulatedChannel;
  beforeEach(async () => {
    channel = await open();
  });
  afterEach(async () => {
    await channel.close();
  });

  it("blocks, fast and interleaved: each block as written, the photo as it came, the tool's file once", async () => {
    const receipt = await deliverAgentRun(script(interleaved()), channel.adapter, channel.target, {
      mode: "blocks",
      minChars: 10,
      idleMs: 0,
      workspaceDir: fixturesDir,
    }).receipt;
    expect(receipt).toMatchObject({ ok: true, mode: "blocks", end: "done" });
    const seen = view(channel.observe());
    expect(seen.words.join(" ")).toBe(`${para1.replaceAll("**", "")} ${para2}`);
    expect(seen.files).toEqual([jpeg.sha, png.sha]);
    // The first block went before the photo: order is kept.
    expect(channel.observe()[0]?.text).toBe(para1.replaceAll("**", ""));
  });

  it("final: the photo as it came, then one reply with the tool's file once", async () => {
    const receipt = await deliverAgentRun(script(interleaved()), channel.adapter, channel.target, {
      workspaceDir: fixturesDir,
    }).receipt;
    expect(receipt).toMatchObject({ ok: true, mode: "final" });
    const seen = view(channel.observe());
    expect(seen.files).toEqual([jpeg.sha, png.sha]);
    expect(seen.words.join(" ")).toBe(`${para1.replaceAll("**", "")} ${para2}`);
    expect(receipt.messages.length).toBe(channel.observe().length);
  });

  it("slow: the idle flush (injected clock) delivers what is written while the agent pauses", async () => {
    const clock = createManualClock();
    let release!: () => void;
    const paused = new Promise<void>((resolve) => {
      release = resolve;
    });
    const run = deliverAgentRun(
      script(
        [
          { type: "text", text: "Looking into it.\nOne mo" },
          { type: "text", text: "ment more." },
          { type: "done" },
        ],
        { 1: paused },
      ),
      channel.adapter,
      channel.target,
      { mode: "blocks", clock, idleMs: 2000 },
    );
    const progress = run[Symbol.asyncIterator]();
    await until(() => clock.pending > 0);
    await clock.advance(1999);
    expect(channel.observe()).toEqual([]);
    await clock.advance(1);
    expect((await progress.next()).value).toMatchObject({
      type: "delivered",
      step: "block",
      receipt: { ok: true },
    });
    expect(channel.observe().map((message) => message.text)).toEqual(["Looking into it."]);
    release();
    const receipt = await run.receipt;
    expect(channel.observe().map((message) => message.text)).toEqual([
      "Looking into it.",
      "One moment more.",
    ]);
    expect(receipt.messages.map((message) => message.part)).toEqual([0, 1]);
  });

  it("error mid-stream: the complete paragraph and the tool's file are delivered, the rest reported", async () => {
    const receipt = await deliverAgentRun(
      script([
        { type: "text", text: "First finding: all good.\n\nSecond find" },
        { type: "tool_result", media: [png.path] },
        { type: "error", error: new Error("model connection lost") },
      ]),
      channel.adapter,
      channel.target,
      { mode: "blocks", minChars: 500, idleMs: 0, workspaceDir: fixturesDir },
    ).receipt;
    const seen = view(channel.observe());
    expect(seen.words.join(" ")).toBe("First finding: all good.");
    expect(seen.files).toEqual([png.sha]);
    expect(receipt).toMatchObject({ ok: false, end: "error" });
    const error = receipt.failures.at(-1)?.error;
    expect(error).toBeInstanceOf(AgentRunError);
    expect(error).toMatchObject({ reason: "agent-error", undelivered: { text: "Second find" } });
  });

  it("abort: nothing is sent after the signal, and the receipt says what was held back", async () => {
    const controller = new AbortController();
    const progress: AgentRunProgress[] = [];
    async function* events(): AsyncGenerator<AgentEvent> {
      yield { type: "text", text: "Sent before the abort.\n\n" };
      yield { type: "tool_use", toolName: "slow" };
      controller.abort();
      yield { type: "text", text: "never shown" };
      yield { type: "done" };
    }
    const run = deliverAgentRun(events(), channel.adapter, channel.target, {
      mode: "blocks",
      idleMs: 0,
      signal: controller.signal,
    });
    for await (const item of run) progress.push(item);
    const receipt = await run.receipt;
    expect(channel.observe().map((message) => message.text)).toEqual(["Sent before the abort."]);
    expect(receipt).toMatchObject({ ok: false, end: "aborted" });
    expect(progress.at(-1)).toMatchObject({ type: "done" });
  });

  it("preview: streams into one message settled into the final reply, or falls back to blocks and says so", async () => {
    const events: AgentEvent[] = [
      ...previewed.map((text): AgentEvent => ({ type: "text", text })),
      { type: "done" },
    ];
    const run = deliverAgentRun(script(events), channel.adapter, channel.target, {
      mode: "preview",
      minChars: 10,
      idleMs: 0,
      workspaceDir: fixturesDir,
    });
    const receipt = await run.receipt;
    expect(receipt.ok).toBe(true);
    const seen = view(channel.observe());
    expect(seen.words.join(" ")).toBe(
      "The answer is forty-two. Here is why: it is the product of six and seven.",
    );
    expect(seen.files).toEqual([png.sha]);
    if (channel.adapter.preview) {
      expect(receipt.mode).toBe("preview");
      expect(receipt.fallback).toBeUndefined();
      // One preview message became the reply's text: no text was posted twice.
      expect(channel.observe().filter((message) => message.kind === "text").length).toBeLessThanOrEqual(1);
    } else {
      expect(receipt).toMatchObject({ mode: "blocks", fallback: { from: "preview", to: "blocks" } });
      const progress = [];
      for await (const item of run) progress.push(item.type);
      expect(progress[0]).toBe("fallback");
    }
  });
});
