import { describe, expect, it } from "vitest";
import {
  ConfigError,
  MediaError,
  neverLeft,
  neverSent,
  OutboxError,
  RateLimitedError,
  StoreError,
  TransportError,
} from "../src/index.js";

describe("errors", () => {
  it("neverSent: only connection failures before any byte left count as never sent", () => {
    for (const code of ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"])
      expect(neverSent(code), code).toBe(true);
    for (const code of ["ECONNRESET", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET", undefined, 61])
      expect(neverSent(code), String(code)).toBe(false);
  });

  it("neverLeft: a refused code or a failed connect() anywhere in the chain; a reset while reading is ambiguous", () => {
    const sys = (code: string, syscall: string) =>
      Object.assign(new Error(`${syscall} ${code}`), { code, syscall });
    expect(neverLeft(new TypeError("fetch failed", { cause: sys("ECONNRESET", "connect") }))).toBe(true);
    expect(neverLeft({ error: { code: "ECONNRESET", erroredSysCall: "connect" } })).toBe(true); // grammY
    expect(
      neverLeft({ original: new TypeError("fetch failed", { cause: sys("ECONNREFUSED", "connect") }) }),
    ).toBe(true); // Slack
    expect(neverLeft(new TypeError("fetch failed", { cause: sys("ECONNRESET", "read") }))).toBe(false);
    expect(neverLeft(sys("EPIPE", "write"))).toBe(false);
    expect(neverLeft(new Error("timeout"))).toBe(false);
    expect(neverLeft(undefined)).toBe(false);
  });

  it("StoreError is its own class and code: Outbox's store failing is never a network failure", () => {
    const error = new StoreError("the delivery journal could not be saved: ENOSPC");
    expect(error).toBeInstanceOf(OutboxError);
    expect(error).not.toBeInstanceOf(TransportError);
    expect(error.code).toBe("store_failed");
    expect(error.toJSON()).toEqual({
      name: "StoreError",
      code: "store_failed",
      message: "the delivery journal could not be saved: ENOSPC",
    });
  });

  it("ConfigError names the factory, the field and the fix, in its message and as fields", () => {
    const error = new ConfigError("createXAdapter", "is missing", {
      field: "token",
      fix: "token: process.env.OUTBOX_X_TOKEN",
    });
    expect(error.code).toBe("config_invalid");
    expect(error.message).toBe("createXAdapter: `token` is missing; fix: token: process.env.OUTBOX_X_TOKEN");
    expect([error.field, error.fix]).toEqual(["token", "token: process.env.OUTBOX_X_TOKEN"]);
    const whole = new ConfigError("createXAdapter", "is missing", { field: "", fix: "pass { token }" });
    expect(whole.message).toBe("createXAdapter: the config is missing; fix: pass { token }");
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
