import { describe, expect, it } from "vitest";
import type { ChannelAdapter, Operation, PlannedDelivery, SendOptions } from "../../src/adapter/types.js";
import { createMemoryStore } from "../../src/engine/memory-store.js";
import { PayloadError, PlatformError } from "../../src/errors/errors.js";
import type { ReplyPayloadInput, Target } from "../../src/payload/types.js";
import { harness } from "./support/harness.js";
import { attach } from "./support/media-bytes.js";

const to = { to: "chat" };
type Plan = NonNullable<ChannelAdapter["plan"]>;
type Execute = NonNullable<ChannelAdapter["execute"]>;
const planOf = (adapter: ChannelAdapter, ...args: Parameters<Plan>) => (adapter.plan as Plan)(...args);
const executeOf = (adapter: ChannelAdapter, ...args: Parameters<Execute>) =>
  (adapter.execute as Execute)(...args);

const cases: Array<[string, ReplyPayloadInput, Target, SendOptions]> = [
  [
    "split text replying to the current message",
    { text: `${"word ".repeat(40)}\n\n${"more ".repeat(30)}`, replyToCurrent: true },
    { to: "chat", currentMessageId: "7" },
    {},
  ],
  [
    "media in hand, an album and a voice note",
    { text: "caption", media: [attach.png(), attach.png(3), attach.mp3()], audioAsVoice: true },
    to,
    { replyMode: "all" },
  ],
  [
    "a refused MEDIA: line between text",
    { text: "before\n\nMEDIA: ftp://example.com/x.png\n\nafter", replyToId: "5" },
    to,
    { replyMode: "off" },
  ],
];

/** What reaches the platform of an operation, without the per-send key and byte streams. */
function summary(op: Operation) {
  const media = (item: { fileName: string; mimeType: string; size: number }) =>
    `${item.fileName} ${item.mimeType} ${item.size}`;
  return {
    type: op.type,
    text: op.type === "text" ? op.text.text : op.caption?.text,
    replyTo: op.replyTo,
    keyed: op.key !== undefined,
    media:
      op.type === "media"
        ? [op.kind, media(op.media)]
        : op.type === "album"
          ? op.items.map((item) => [item.kind, media(item.media)])
          : undefined,
  };
}

describe("adapter.execute", () => {
  it.each(cases)("executing the plan of %s is the send", async (_, payload, target, options) => {
    const sent = harness({ text: { maxLength: 100, format: "html" } });
    const executed = harness({ text: { maxLength: 100, format: "html" } });
    const receipt = await sent.send(payload, target, options);
    const planned = await planOf(executed.adapter, payload, target, options);
    expect(executed.transport.calls).toHaveLength(0);
    const run = await executed.clock.run(executeOf(executed.adapter, planned));
    expect(run).toEqual(receipt);
    // Each send draws its own operation keys and loads its own copy of the media.
    const ops = (h: typeof sent) => h.transport.calls.map(({ op }) => summary(op));
    expect(ops(executed)).toEqual(ops(sent));
    expect(executed.transport.calls).toHaveLength(planned.calls);
  });

  it("a plan kept as JSON is executed later, under the same journal as send", async () => {
    const store = createMemoryStore();
    const h = harness({ text: { maxLength: 12, format: "html" } }, { store });
    const text = "one one\n\ntwo two\n\nthree three";
    h.transport.behave((op) => {
      if (op.type === "text" && op.text.text === "two two")
        throw new PlatformError("refused", { method: "sendText", status: 400, description: "Bad Request" });
      return undefined;
    });
    const first = await h.send({ text }, to, { idempotencyKey: "k" });
    expect(first.failures.map((failure) => failure.part)).toEqual([1]);
    const kept = JSON.parse(JSON.stringify(await planOf(h.adapter, { text }, to))) as PlannedDelivery;
    h.transport.behave(() => undefined);
    const receipt = await h.clock.run(executeOf(h.adapter, kept, { idempotencyKey: "k" }));
    expect(h.transport.calls.map((call) => (call.op.type === "text" ? call.op.text.text : ""))).toEqual([
      "one one",
      "two two",
      "three three",
      "two two",
    ]);
    expect(receipt.ok).toBe(true);
    expect(receipt.messages.map((message) => message.part)).toEqual([0, 1, 2]);
  });

  it("the plan's reply mode is the one executed, whatever the options say", async () => {
    const h = harness();
    const planned = await planOf(h.adapter, { text: "hi", replyToId: "9" }, to, { replyMode: "off" });
    await h.clock.run(executeOf(h.adapter, planned, { replyMode: "first" } as SendOptions));
    expect(h.transport.op(0).replyTo).toBeUndefined();
  });

  it.each([
    ["undefined", undefined],
    ["an object without an input", { parts: [], calls: 0 }],
    ["an input without a target", { platform: "test", input: { payload: { text: "x" } } }],
  ])("refuses %s with a PayloadError before any call", async (_, value) => {
    const h = harness();
    await expect(executeOf(h.adapter, value as never)).rejects.toThrow(PayloadError);
    await expect(executeOf(h.adapter, value as never)).rejects.toThrow(/Invalid plan: it has no input/);
    expect(h.transport.calls).toHaveLength(0);
  });

  it("refuses a plan made for another platform, and one whose input send refuses", async () => {
    const h = harness();
    const planned = await planOf(h.adapter, { text: "hi" }, to);
    await expect(executeOf(h.adapter, { ...planned, platform: "slack" })).rejects.toThrow(
      /made for "slack", and this adapter delivers to test/,
    );
    const tampered = { ...planned, input: { ...planned.input, target: { to: 5 } } } as never;
    await expect(executeOf(h.adapter, tampered)).rejects.toThrow(PayloadError);
    expect(h.transport.calls).toHaveLength(0);
  });
});
