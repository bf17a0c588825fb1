import { type AgentEvent, deliverAgentRun, type EmulatedChannel } from "@outbox/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixturesDir, platforms, png, view } from "./channels.js";

async function* script(events: AgentEvent[]): AsyncGenerator<AgentEvent> {
  for (const event of events) yield event;
}

const reply = [
  "The **answer** is ",
  "forty-two.\n\n",
  "Here is why: ",
  "it is the product of six and seven.\n",
  `MEDIA:${png.path}\n`,
];

describe.each(platforms)("preview mode through the %s emulator", (_name, open) => {
  let channel: EmulatedChannel;
  beforeEach(async () => {
    channel = await open();
  });
  afterEach(async () => {
    await channel.close();
  });

  it("streams into one message settled into the final reply, or falls back to blocks and says so", async () => {
    const events: AgentEvent[] = [
      ...reply.map((text): AgentEvent => ({ type: "text", text })),
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
