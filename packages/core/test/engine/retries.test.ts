import { describe, expect, it } from "vitest";
import { invisibleFailure } from "../../src/engine/retry.js";
import { PlatformError, RateLimitedError, TransportError } from "../../src/errors/errors.js";
import { harness } from "./support/harness.js";

const to = { to: "chat1" };
const fail = (times: number, error: () => Error) => (_: unknown, call: number) => {
  if (call <= times) throw error();
  return undefined;
};

describe("retries", () => {
  it("honours 429: waits retryAfterMs on the clock, then delivers once", async () => {
    const { send, transport } = harness();
    transport.behave(fail(2, () => new RateLimitedError("slow down", 3_000)));
    const receipt = await send({ text: "hi" }, to);
    expect(receipt.ok).toBe(true);
    expect(transport.calls.map((c) => c.at)).toEqual([0, 3_000, 6_000]);
    expect(transport.delivered()).toHaveLength(1);
  });

  it("fails the part with RateLimitedError after maxRetries, and continues the plan", async () => {
    const { send, transport } = harness(
      { text: { maxLength: 20, format: "x" } },
      { retry: { maxRetries: 2 } },
    );
    transport.behave((op) => {
      if (op.type === "text" && op.text.text.startsWith("first"))
        throw new RateLimitedError("slow down", 1_000);
      return undefined;
    });
    const receipt = await send({ text: "first part here\n\nsecond part here" }, to);
    expect(receipt.failures).toEqual([
      {
        part: 0,
        error: expect.any(RateLimitedError),
        content: 'text "first part here"',
        ambiguous: false,
        retryable: true,
        action: expect.stringMatching(/wait 1 s: resend with the same idempotencyKey/),
      },
    ]);
    expect(receipt.messages).toEqual([{ id: "m1", kind: "text", part: 1 }]);
    expect(transport.calls).toHaveLength(4);
  });

  it("fails fast when retry_after exceeds maxRetryWaitMs", async () => {
    const { send, transport, clock } = harness({}, { retry: { maxRetryWaitMs: 5_000 } });
    transport.behave(fail(1, () => new RateLimitedError("slow down", 60_000)));
    const receipt = await send({ text: "hi" }, to);
    expect(receipt.failures[0]?.error).toMatchObject({ code: "rate_limited", retryAfterMs: 60_000 });
    expect(transport.calls).toHaveLength(1);
    expect(clock.now()).toBe(0);
  });

  it("retries a network failure before sending, with backoff", async () => {
    const { send, transport } = harness();
    transport.behave(fail(2, () => new TransportError("ECONNREFUSED", { ambiguous: false })));
    const receipt = await send({ text: "hi" }, to);
    expect(receipt.ok).toBe(true);
    expect(transport.calls.map((c) => c.at)).toEqual([0, 500, 1_500]);
  });

  it("does not retry an ambiguous failure by default, and reports it", async () => {
    const { send, transport } = harness();
    transport.behave(fail(1, () => new TransportError("socket hang up", { ambiguous: true })));
    const receipt = await send({ text: "hi" }, to);
    expect(transport.calls).toHaveLength(1);
    expect(receipt.failures[0]?.error).toMatchObject({ code: "transport_error", ambiguous: true });
  });

  it("retries an ambiguous failure with retryAmbiguous", async () => {
    const { send, transport } = harness({}, { retry: { retryAmbiguous: true } });
    transport.behave(fail(1, () => new TransportError("timeout", { ambiguous: true })));
    expect((await send({ text: "hi" }, to)).ok).toBe(true);
    expect(transport.calls).toHaveLength(2);
  });

  it("does not retry a 5xx by default (it may have been delivered)", async () => {
    const { send, transport } = harness();
    transport.behave(
      fail(
        1,
        () =>
          new PlatformError("bad gateway", {
            method: "sendMessage",
            status: 502,
            description: "Bad Gateway",
          }),
      ),
    );
    const receipt = await send({ text: "hi" }, to);
    expect(transport.calls).toHaveLength(1);
    expect(receipt.failures[0]?.error).toMatchObject({ code: "platform_error", status: 502 });
  });

  it("maps an unexpected transport exception to an ambiguous TransportError", async () => {
    const { send, transport } = harness();
    transport.behave(() => {
      throw new Error("boom");
    });
    const receipt = await send({ text: "hi" }, to);
    expect(receipt.failures[0]?.error).toMatchObject({ code: "transport_error", ambiguous: true });
  });

  it("a failure in part 2 does not lose parts 1 and 3", async () => {
    const { send, transport } = harness({ text: { maxLength: 12, format: "x" } });
    transport.behave((op) => {
      if (op.type === "text" && op.text.text.startsWith("two"))
        throw new PlatformError("no", { method: "sendMessage", status: 400, description: "Bad Request" });
      return undefined;
    });
    const receipt = await send({ text: "one one\n\ntwo two\n\nthree three" }, to);
    expect(receipt.ok).toBe(false);
    expect(receipt.messages.map((m) => m.part)).toEqual([0, 2]);
    expect(receipt.failures.map((f) => f.part)).toEqual([1]);
  });

  it("sends the caption as text when its media message certainly failed", async () => {
    const { send, transport } = harness();
    transport.behave((op) => {
      if (op.type === "media")
        throw new PlatformError("no", {
          method: "sendPhoto",
          status: 400,
          description: "IMAGE_PROCESS_FAILED",
        });
      return undefined;
    });
    const { attach } = await import("./support/media-bytes.js");
    const receipt = await send({ text: "caption", media: [attach.png()] }, to);
    expect(receipt.failures.map((f) => f.part)).toEqual([0]);
    expect(receipt.messages).toEqual([{ id: "m1", kind: "text", part: 0 }]);
    expect(receipt.degraded[0]).toMatchObject({ from: "caption", to: "text" });
  });

  it("a captioned image on an unreachable platform takes one retry cycle, not a second for its caption", async () => {
    const { send, transport, clock } = harness();
    transport.behave(() => {
      throw new TransportError("Telegram sendPhoto: connect ECONNREFUSED 127.0.0.1:9", { ambiguous: false });
    });
    const { attach } = await import("./support/media-bytes.js");
    const receipt = await send({ text: "caption", media: [attach.png()] }, to, { idempotencyKey: "down" });
    // 1 try + 3 retries over 0.5 + 1 + 2 s; the caption is not tried as text on its own cycle.
    expect(transport.calls.map((call) => call.op.type)).toEqual(["media", "media", "media", "media"]);
    expect(clock.now()).toBe(3_500);
    expect(receipt.messages).toEqual([]);
    expect(receipt.failures.map((f) => [f.part, f.retryable])).toEqual([[0, true]]);
    // Once the platform is back, the resend delivers the image with its caption.
    transport.behave(() => undefined);
    const again = await send({ text: "caption", media: [attach.png()] }, to, { idempotencyKey: "down" });
    expect(again.ok).toBe(true);
    expect(again.degraded).toEqual([]);
  });

  it("an upload that failed without posting anything does not stop the rest as unreachable", async () => {
    const { send, transport } = harness({ album: null, caption: null });
    transport.behave((op) => {
      if (op.type === "media" && op.kind === "image")
        throw invisibleFailure(
          new PlatformError("upload failed", { method: "upload", status: 503, description: "busy" }),
        );
      return undefined;
    });
    const { attach } = await import("./support/media-bytes.js");
    const receipt = await send({ text: "", media: [attach.png(), attach.pdf()] }, to, {
      idempotencyKey: "upload",
    });
    expect(receipt.failures.map((f) => f.part)).toEqual([0]);
    expect(receipt.messages.map((m) => [m.part, m.kind])).toEqual([[1, "document"]]);
    expect(receipt.failures[0]?.action).toMatch(/posts nothing visible .* nothing was delivered/);
    expect(receipt.failures[0]?.action).not.toMatch(/could not be reached/);
  });

  it("aborting rejects the send", async () => {
    const { adapter, transport, clock } = harness();
    transport.behave(() => {
      throw new RateLimitedError("slow", 10_000);
    });
    const controller = new AbortController();
    const sending = adapter.send({ text: "hi" }, to, { signal: controller.signal });
    await clock.advance(1);
    controller.abort(new Error("stop"));
    await expect(sending).rejects.toThrow("stop");
  });
});
