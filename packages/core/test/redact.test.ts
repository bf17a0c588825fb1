import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  MediaError,
  PlatformError,
  REDACTED,
  redactError,
  redactedExcerpt,
  redactSecrets,
  TransportError,
} from "../src/index.js";

describe("redactSecrets", () => {
  it.each([
    [
      "https://api.telegram.org/bot123456:ABC-def_ghi/sendMessage",
      "https://api.telegram.org/bot<redacted>/sendMessage",
    ],
    ["POST /bot123:ABC/getMe", "POST /bot<redacted>/getMe"],
    ["token 1234567890:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQ", `token ${REDACTED}`],
    ["Authorization: Bearer abc.def.ghi-1234567890", `Authorization: ${REDACTED}`],
    ['{"Authorization":"Bot abcdef"}', `{"Authorization":"${REDACTED}"}`],
    ["sent Bearer abcdefghijklmnopqrstuvwxyz", `sent Bearer ${REDACTED}`],
    ["slack xoxb-12345-67890-AbCdEf said no", `slack ${REDACTED} said no`],
    ["app xapp-1-A0-123-abc", `app ${REDACTED}`],
    ["discord MTIzNDU2Nzg5MDEyMzQ1Njc4OTA.GaBcDe.abcdefghijklmnopqrstuvwxyz0123 x", `discord ${REDACTED} x`],
    ['"ftp://user:password@files.example.com/a.png"', '"ftp://files.example.com/a.png"'],
    ["https://u:p@example.com/a.png?token=SECRET#frag", "https://example.com/a.png?…"],
    ["http://example.com/a#only-fragment", "http://example.com/a"],
    ["Local media path /srv/a?b.png is outside", "Local media path /srv/a?b.png is outside"],
    ["plain words stay", "plain words stay"],
  ])("%s", (input, output) => {
    expect(redactSecrets(input)).toBe(output);
  });

  it("removes declared secrets, as written and percent-encoded; ignores very short ones", () => {
    const secret = "my secret/value";
    const text = `a my secret/value b ${encodeURIComponent(secret)} c abc`;
    expect(redactSecrets(text, [secret, "abc"])).toBe(`a ${REDACTED} b ${REDACTED} c abc`);
  });
});

describe("redactedExcerpt", () => {
  it("redacts the whole text before cutting it, so a cut never keeps the start of a secret", () => {
    const secret = "opaque-credential-4f9a8b7c6d5e";
    const page = `<html>${"x".repeat(185)} ${secret}</html>`;
    expect(page.slice(0, 200)).toContain(secret.slice(0, 8));
    const excerpt = redactedExcerpt(page, [secret]);
    expect(excerpt).toHaveLength(200);
    expect(excerpt).not.toContain(secret.slice(0, 8));
    expect(redactedExcerpt("short", [secret])).toBe("short");
    expect(redactedExcerpt(`${"x".repeat(199)}😀`, [])).toHaveLength(199);
  });

  it.each([
    ["Meta", `token EAAGm0PX4ZCpsBA${"k".repeat(40)} rejected`],
    ["Synapse", "token syt_Ym90_QwErTyUiOpAsDf_1a2b3c rejected"],
    ["MAS", "token mat_QwErTyUiOpAsDfGhJk rejected"],
  ])("removes %s access tokens by their shape", (_kind, text) => {
    expect(redactSecrets(text)).toBe(`token ${REDACTED} rejected`);
  });
});

describe("redactError", () => {
  it("keeps the class, code and fields, and redacts message, stack, properties and the whole cause chain", () => {
    const root = Object.assign(new Error("connect to https://h/botSECRET-TOKEN-123/x failed"), {
      code: "ECONNRESET",
    });
    const middle = Object.assign(new Error("wrapped"), {
      error: root,
      payload: { chat_id: 42, text: "SECRET-TOKEN-123", file: new Uint8Array(3) },
    });
    const error = new TransportError("Telegram sendMessage: SECRET-TOKEN-123", {
      ambiguous: true,
      cause: middle,
    });
    Object.defineProperty(root, "back", { value: error, enumerable: false });
    const redacted = redactError(error, ["SECRET-TOKEN-123"]);
    expect(redacted).toBeInstanceOf(TransportError);
    expect(redacted.code).toBe("transport_error");
    expect(redacted.ambiguous).toBe(true);
    expect(redacted.message).toBe(`Telegram sendMessage: ${REDACTED}`);
    const shown = [
      inspect(redacted, { depth: null, showHidden: true }),
      JSON.stringify(redacted),
      redacted.stack,
    ].join();
    expect(shown).not.toContain("SECRET-TOKEN-123");
    const cause = redacted.cause as Error & { error: Error & { code: string }; payload: { chat_id: number } };
    expect(cause.error.code).toBe("ECONNRESET");
    expect(cause.payload.chat_id).toBe(42);
    expect(error.message).toContain("SECRET-TOKEN-123");
  });

  it("a DOMException cause stays a DOMException, redacted, and prints", () => {
    const cause = new DOMException("aborted at https://h/botSECRET-TOKEN-123/x", "TimeoutError");
    const redacted = redactError(new TransportError("timed out", { ambiguous: true, cause }), [
      "SECRET-TOKEN-123",
    ]);
    const copy = redacted.cause as DOMException;
    expect(copy).toBeInstanceOf(DOMException);
    expect(copy.name).toBe("TimeoutError");
    expect(copy.code).toBe(DOMException.TIMEOUT_ERR);
    expect(String(copy)).toBe(`TimeoutError: aborted at https://h/bot${REDACTED}/x`);
    expect(inspect(redacted, { depth: null })).toContain("DOMException [TimeoutError]");
    expect(inspect(redacted, { depth: null, showHidden: true })).not.toContain("SECRET-TOKEN-123");
  });

  it("an error whose class reads its message from private state becomes a printable Error", () => {
    const branded = new WeakSet<object>();
    class Native extends Error {
      constructor() {
        super();
        branded.add(this);
      }
      override get message(): string {
        if (!branded.has(this)) throw new TypeError("Illegal invocation");
        return "native failure SECRET-TOKEN-123";
      }
    }
    const redacted = redactError(new Native(), ["SECRET-TOKEN-123"]);
    expect(redacted).toBeInstanceOf(Error);
    expect(String(redacted)).toBe(`Error: native failure ${REDACTED}`);
    expect(() => inspect(redacted)).not.toThrow();
  });

  it("every Outbox error message drops URL credentials and queries at construction", () => {
    const media = new MediaError("blocked", "Media https://u:pw@x.example/a.png?sig=abc was refused");
    expect(media.message).toBe("Media https://x.example/a.png?… was refused");
    const platform = new PlatformError("see https://x.example/?k=v", {
      method: "m",
      status: 400,
      description: "d",
    });
    expect(platform.message).toBe("see https://x.example/?…");
  });
});
