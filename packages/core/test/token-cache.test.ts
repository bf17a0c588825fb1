/**
 * Core's token cache for adapters with their own client: one fetch for callers waiting at
 * once, kept until five minutes (or a tenth of a short life) before expiry, replaced when the
 * platform refused it; and `Retry-After` and JSON bodies as the thin clients read them.
 */
import { describe, expect, it } from "vitest";
import { cachedTokens, jsonObject, retryAfterMs } from "../src/index.js";

function source(lifeMs: number) {
  let now = 0;
  let issued = 0;
  const tokens = cachedTokens(
    async () => {
      issued += 1;
      return { token: `t${issued}`, lifeMs };
    },
    { now: () => now },
    ["the-secret"],
  );
  return { tokens, advance: (ms: number) => (now += ms), issued: () => issued };
}

describe("cachedTokens", () => {
  it("fetches once for callers waiting at the same time, and lists the secret and tokens to redact", async () => {
    const { tokens, issued } = source(3_600_000);
    expect(await Promise.all([tokens.get(), tokens.get(), tokens.get()])).toEqual(["t1", "t1", "t1"]);
    expect(issued()).toBe(1);
    expect(tokens.secrets()).toEqual(["the-secret", "t1"]);
  });

  it("renews five minutes before an hour's token expires, a tenth of its life for a short one", async () => {
    const hour = source(3_600_000);
    await hour.tokens.get();
    hour.advance(3_600_000 - 5 * 60_000 - 1);
    expect(await hour.tokens.get()).toBe("t1");
    hour.advance(1);
    expect(await hour.tokens.get()).toBe("t2");
    const short = source(60_000);
    await short.tokens.get();
    short.advance(54_000);
    expect(await short.tokens.get()).toBe("t2");
  });

  it("replaces the token the platform refused, and only that one", async () => {
    const { tokens } = source(3_600_000);
    const first = await tokens.get();
    expect(await tokens.get(undefined, first)).toBe("t2");
    expect(await tokens.get(undefined, first)).toBe("t2");
  });
});

describe("thin-client answers", () => {
  it("reads Retry-After seconds as milliseconds, and nothing else", () => {
    expect(retryAfterMs({ "retry-after": "1.5" })).toBe(1500);
    expect(retryAfterMs({ "retry-after": ["2"] })).toBe(2000);
    expect(retryAfterMs({ "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" })).toBeUndefined();
    expect(retryAfterMs({})).toBeUndefined();
  });

  it("reads a JSON object body, and undefined for anything else", () => {
    expect(jsonObject('{"error":{"code":400}}')).toEqual({ error: { code: 400 } });
    expect(jsonObject("[1]")).toBeUndefined();
    expect(jsonObject("<html>")).toBeUndefined();
  });
});
