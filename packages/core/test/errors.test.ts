import { describe, expect, it } from "vitest";
import { MediaError, neverSent, OutboxError, RateLimitedError, TransportError } from "../src/index.js";

describe("errors", () => {
  it("neverSent: only connection failures before any byte left count as never sent", () => {
    for (const code of ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"])
      expect(neverSent(code), code).toBe(true);
    for (const code of ["ECONNRESET", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET", undefined, 61])
      expect(neverSent(code), String(code)).toBe(false);
  });

  it("keeps a stable code, the subclass name and the cause", () => {
    const cause = new Error("ECONNRESET");
    const error = new TransportError("connection reset", { ambiguous: true, cause });
    expect(error).toBeInstanceOf(OutboxError);
    expect(error.code).toBe("transport_error");
    expect(error.name).toBe("TransportError");
    expect(error.cause).toBe(cause);
    expect(error.ambiguous).toBe(true);
  });

  it("maps media reasons to codes and keeps milliseconds", () => {
    expect(new MediaError("too-large", "x").code).toBe("media_too_large");
    expect(new RateLimitedError("slow down", 3000).retryAfterMs).toBe(3000);
  });
});
