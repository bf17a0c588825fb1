import {
  createReferenceAdapter,
  REFERENCE_CHAT,
  ReferenceEmulator,
  referenceCapabilities,
} from "@outbox/conformance";
import { type AgentEvent, deliverAgentRun } from "@outbox/core";
import { describe, expect, it } from "vitest";

async function* script(events: AgentEvent[]): AsyncGenerator<AgentEvent> {
  for (const event of events) yield event;
}

describe("preview mode on core's live preview (the reference adapter, which declares edits)", () => {
  it("one message grows while written and settles into the final reply: no text posted twice", async () => {
    const emulator = new ReferenceEmulator(referenceCapabilities);
    const adapter = createReferenceAdapter({ emulator });
    expect(adapter.preview).toBeTypeOf("function");
    const deltas = ["The answer ", "is forty-two.\n\n", "Because six ", "times seven."];
    const run = deliverAgentRun(
      script([...deltas.map((text): AgentEvent => ({ type: "text", text })), { type: "done" }]),
      adapter,
      { to: REFERENCE_CHAT },
      { mode: "preview" },
    );
    const progress: string[] = [];
    for await (const item of run) progress.push(item.type);
    const receipt = await run.receipt;
    expect(receipt).toMatchObject({ ok: true, mode: "preview", end: "done" });
    expect(receipt.fallback).toBeUndefined();
    expect(progress).toEqual(["preview-started", "delivered", "done"]);
    const texts = emulator.observe().filter((message) => message.kind === "text");
    expect(texts.map((message) => message.text).join("\n\n")).toBe(
      "The answer is forty-two.\n\nBecause six times seven.",
    );
    // The first message is the preview, edited in place (its earlier texts are its revisions).
    expect(texts[0]?.revisions?.length).toBeGreaterThanOrEqual(1);
  });
});
