import { describe, expect, it } from "vitest";
import { type JsonApiErrors, jsonApiFailure } from "../src/adapter/json-api-failure.js";
import {
  AuthError,
  PlatformError,
  type RateLimitedError,
  TargetNotFoundError,
  TransportError,
} from "../src/errors/errors.js";

const API: JsonApiErrors = {
  platform: "Chat",
  codeField: "status",
  hints: { NOT_FOUND: "no such space" },
  rateLimitWaitMs: 700,
  messageCalls: ["patch", "delete"],
  refine: (status, code, message) =>
    status === 412 || code === "GONE" ? new TransportError(message, { ambiguous: true }) : undefined,
};
const SECRET = "s3cr3t-token-value-0123456789";

const fail = (status: number, body: unknown, method = "create", headers = {}, thread = false) =>
  jsonApiFailure(
    API,
    { method, thread },
    { status, headers, text: typeof body === "string" ? body : JSON.stringify(body) },
    [SECRET],
  );

describe("jsonApiFailure", () => {
  it("names the platform, call, status, the envelope's code and its hint, and quotes its message", () => {
    const error = fail(404, { error: { status: "NOT_FOUND", code: 404, message: "Space missing" } });
    expect(error).toBeInstanceOf(TargetNotFoundError);
    expect(error.message).toBe("Chat create: HTTP 404 NOT_FOUND (Space missing); no such space");
    expect((error as TargetNotFoundError).missing).toBe("chat");
  });

  it("a 404 is the message's on a message call, the thread's on a threaded send", () => {
    expect((fail(404, {}, "patch") as TargetNotFoundError).missing).toBe("message");
    expect((fail(404, {}, "create", {}, true) as TargetNotFoundError).missing).toBe("thread");
  });

  it("a body that is not the envelope is quoted with the secrets removed", () => {
    const error = fail(502, `<html>bad gateway ${SECRET}</html>`);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toMatch(/^Chat create: HTTP 502 \(<html>bad gateway /);
    expect(error.message).not.toContain(SECRET);
  });

  it("401 and 403 are refusals; a 429 waits Retry-After, else the platform's wait", () => {
    expect(fail(401, {})).toBeInstanceOf(AuthError);
    expect(fail(403, {})).toBeInstanceOf(AuthError);
    expect((fail(429, {}) as RateLimitedError).retryAfterMs).toBe(700);
    expect((fail(429, {}, "create", { "retry-after": "3" }) as RateLimitedError).retryAfterMs).toBe(3000);
  });

  it("the platform's own reading comes first", () => {
    expect(fail(412, {})).toBeInstanceOf(TransportError);
    expect(fail(403, { error: { status: "GONE" } })).toBeInstanceOf(TransportError);
  });
});
