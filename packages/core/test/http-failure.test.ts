import { createServer } from "node:net";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { AuthError, networkFailure, retryAfterMs, TransportError } from "../src/index.js";

describe("retryAfterMs", () => {
  it("reads seconds, whole or fractional, from a header or the first of a repeated one", () => {
    expect(retryAfterMs({ "retry-after": "3" })).toBe(3000);
    expect(retryAfterMs({ "retry-after": "0.25" })).toBe(250);
    expect(retryAfterMs({ "retry-after": ["2", "9"] })).toBe(2000);
    expect(retryAfterMs({ "retry-after": "0" })).toBe(0);
  });

  it("gives nothing for an absent, empty, negative or unreadable header (the caller's default applies)", () => {
    expect(retryAfterMs({})).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "" })).toBeUndefined();
    expect(retryAfterMs({ "retry-after": " " })).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "-1" })).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "Infinity" })).toBeUndefined();
  });
});

describe("networkFailure", () => {
  it("a refused connection is a safe-to-resend TransportError naming the call and the code", async () => {
    const port = await closedPort();
    const error = await request(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    const failure = networkFailure("Platform send", error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).ambiguous).toBe(false);
    expect(failure.message).toBe("Platform send: request failed (ECONNREFUSED)");
    expect(failure.cause).toBe(error);
  });

  it("a reset after the request left is ambiguous, the code read through the cause chain", () => {
    const reset = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    const wrapped = new TypeError("fetch failed", { cause: reset });
    const failure = networkFailure("Platform edit", wrapped) as TransportError;
    expect(failure.ambiguous).toBe(true);
    expect(failure.message).toBe("Platform edit: request failed (UND_ERR_SOCKET)");
  });

  it("an error without a code is named by its class; a judged OutboxError passes unchanged", () => {
    expect(networkFailure("x", new RangeError("boom")).message).toBe("x: request failed (RangeError)");
    expect(networkFailure("x", "weird").message).toBe("x: request failed (network failure)");
    const judged = new AuthError("token refused");
    expect(networkFailure("x", judged)).toBe(judged);
  });
});

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
