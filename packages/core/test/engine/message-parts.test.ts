/**
 * Edits and deletes are plan parts: the executor runs them as it runs sends, through the
 * pacer and the retries, with receipt entries, redacted failures and the journal.
 */
import { describe, expect, it } from "vitest";
import type {
  DeleteOperation,
  DeliveryJournal,
  EditOperation,
  Operation,
  RenderedText,
  Transport,
} from "../../src/adapter/types.js";
import { createManualClock } from "../../src/engine/clock.js";
import { createPacer } from "../../src/engine/pacer.js";
import { resolveRetryPolicy } from "../../src/engine/retry.js";
import { type RunContext, runPlan } from "../../src/engine/run-plan.js";
import { PlatformError, RateLimitedError } from "../../src/errors/errors.js";
import type { ExecutionPlan } from "../../src/plan/message-parts.js";

const SECRET = "s3cr3t-token-value";
const rendered = (text: string): RenderedText => ({ text, plain: text });
const root = { type: "root" as const, children: [] };
const image = {
  kind: "image" as const,
  mimeType: "image/png",
  fileName: "a.png",
  size: 3,
  source: { type: "inline" as const },
  open: async function* () {},
};

type Call = { op: Operation | EditOperation | DeleteOperation; at: number };

/** A platform holding message `p1`; `refuse` decides which calls fail. */
function setup(refuse: (op: Call["op"], call: number) => Error | undefined = () => undefined) {
  const clock = createManualClock();
  const calls: Call[] = [];
  const act = async (op: Call["op"]) => {
    calls.push({ op, at: clock.now() });
    const error = refuse(op, calls.length);
    if (error !== undefined) throw error;
    return { id: op.type === "edit" ? op.messageId : `m${calls.length}` };
  };
  const transport: Transport = {
    sendText: act,
    sendMedia: act,
    editText: act,
    deleteMessage: async (op) => {
      await act(op);
    },
  };
  const saved: DeliveryJournal[] = [];
  const run = (plan: ExecutionPlan, overrides: Partial<RunContext> = {}) =>
    clock.run(
      runPlan(plan, {
        transport,
        target: { to: "chat" },
        sendKey: "k",
        retry: {
          policy: resolveRetryPolicy(),
          clock,
          pacer: createPacer([{ scope: "target", limit: 1, intervalMs: 1000 }], clock, {
            margin: 0,
            latencyMs: 0,
          }),
          to: "chat",
          signal: undefined,
        },
        replyTo: "in1",
        replyMode: "first",
        replyDropped: undefined,
        journal: { fingerprint: "", messages: [], degraded: [], deliveredParts: [] },
        save: async (journal) => {
          saved.push(structuredClone(journal));
        },
        secrets: [SECRET],
        ambiguous: "report",
        ...overrides,
      }),
    );
  return { calls, run, saved };
}

describe("edit and delete parts", () => {
  it("an edit part is paced with the sends, carries the reply's place and is part 0 of the receipt", async () => {
    const { calls, run, saved } = setup();
    const receipt = await run({
      parts: [
        { type: "edit", messageId: "p1", text: rendered("one"), sources: [] },
        { type: "text", tree: root, text: rendered("two"), sources: [] },
      ],
      degraded: [],
    });
    expect(calls.map(({ op, at }) => [op.type, at, op.replyTo])).toEqual([
      ["edit", 0, undefined],
      // The edited message carries the reply already: the next part does not (replyMode first).
      ["text", 1000, undefined],
    ]);
    expect(receipt).toMatchObject({
      ok: true,
      messages: [
        { id: "p1", kind: "text", part: 0 },
        { id: "m2", kind: "text", part: 1 },
      ],
    });
    expect(saved[0]).toMatchObject({ deliveredParts: [0], messages: [{ id: "p1", part: 0 }] });
  });

  it("an edit answered 429 waits retry_after and is retried, like a send", async () => {
    const { calls, run } = setup((op, call) =>
      op.type === "edit" && call === 1 ? new RateLimitedError("slow down", 3000) : undefined,
    );
    const receipt = await run({
      parts: [{ type: "edit", messageId: "p1", text: rendered("one"), sources: [] }],
      degraded: [],
    });
    expect(calls.map(({ op, at }) => [op.type, at])).toEqual([
      ["edit", 0],
      ["edit", 3000],
    ]);
    expect(receipt.ok).toBe(true);
  });

  it("a refused edit is a failure entry, redacted, naming the message and its text", async () => {
    const { run } = setup(
      () =>
        new PlatformError(`bad token ${SECRET}`, {
          method: "editMessageText",
          status: 400,
          description: "Bad Request",
        }),
    );
    const receipt = await run({
      parts: [{ type: "edit", messageId: "p1", text: rendered(`say ${SECRET}`), sources: [] }],
      degraded: [],
    });
    expect(receipt.ok).toBe(false);
    expect(receipt.failures).toHaveLength(1);
    const [failure] = receipt.failures;
    expect(failure?.part).toBe(0);
    expect(failure?.content).toMatch(/^edit of message p1 to text "say /);
    expect(JSON.stringify(receipt)).not.toContain(SECRET);
  });

  it("an applied edit makes no call; its media goes after it without caption or reply", async () => {
    const { calls, run } = setup();
    const receipt = await run({
      parts: [
        {
          type: "edit",
          messageId: "p1",
          text: rendered("caption"),
          applied: true,
          media: { type: "media", kind: "image", media: image, caption: rendered("caption"), sources: [0] },
          sources: [0],
        },
      ],
      degraded: [],
    });
    expect(calls.map(({ op }) => [op.type, op.replyTo, "caption" in op ? op.caption : undefined])).toEqual([
      ["media", undefined, undefined],
    ]);
    expect(receipt.messages).toEqual([
      { id: "p1", kind: "text", part: 0 },
      { id: "m1", kind: "image", part: 0 },
    ]);
  });

  it("a delete part is paced and retried; delivered, it leaves no message and is saved", async () => {
    const { calls, run, saved } = setup((op, call) =>
      op.type === "delete" && call === 1 ? new RateLimitedError("slow down", 2000) : undefined,
    );
    const receipt = await run({ parts: [{ type: "delete", messageId: "p1", sources: [] }], degraded: [] });
    expect(calls.map(({ op, at }) => [op.type, at])).toEqual([
      ["delete", 0],
      ["delete", 2000],
    ]);
    expect(receipt).toEqual({ ok: true, messages: [], failures: [], degraded: [] });
    expect(saved.at(-1)).toMatchObject({ deliveredParts: [0] });
  });

  it("partless calls carry no operation key and tell the gate no part", async () => {
    const gated: unknown[] = [];
    const { calls, run } = setup();
    const gate = async (_to: string, _signal?: AbortSignal, call?: unknown) => {
      gated.push(call);
    };
    const clock = createManualClock();
    await run(
      { parts: [{ type: "text", tree: root, text: rendered("draft"), sources: [] }], degraded: [] },
      {
        partless: true,
        retry: {
          policy: resolveRetryPolicy(),
          clock,
          pacer: createPacer([], clock),
          to: "chat",
          signal: undefined,
          gate,
        },
      },
    );
    expect(calls[0]?.op.key).toBeUndefined();
    expect(gated).toEqual([{ attempt: 0 }]);
  });
});
