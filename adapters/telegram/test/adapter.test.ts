import { fixtureBytes, fixtureSha256 } from "@outbox/conformance";
import { ConfigError, PayloadError } from "@outbox/core";
import { Api, Bot } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTelegramAdapter, telegramCapabilities } from "../src/index.js";
import { startTelegramEmulator, type TelegramEmulator } from "../src/testing/index.js";

let emulator: TelegramEmulator;

beforeEach(async () => {
  emulator = await startTelegramEmulator({ rateLimits: false });
});
afterEach(() => emulator.close());

const adapter = () => createTelegramAdapter({ token: emulator.token, apiRoot: `${emulator.apiRoot}/` });

describe("createTelegramAdapter", () => {
  it("needs a config with a token or a client, and says so", () => {
    for (const config of [undefined, {}, { token: "" }]) {
      let error: unknown;
      try {
        createTelegramAdapter(config);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).field).toBe(config === undefined ? "" : "token");
      expect((error as Error).message).toMatch(
        /^createTelegramAdapter: .*; fix: .*OUTBOX_TELEGRAM_TOKEN.*client/,
      );
    }
  });

  it("names the field and the fix when send gets no options object or no target.to", async () => {
    const send = adapter().send;
    const cases: Array<[Parameters<typeof send>, RegExp]> = [
      [
        [{ text: "x" }, { to: "42" }, null as never],
        /options must be an object or left out, got null \(pass \{\} or leave it out\)/,
      ],
      [[{ text: "x" }, null as never], /target must be an object, got null \(pass a target like \{ to:/],
      [
        [{ text: "x" }, {} as never],
        /target\.to must be a non-empty string, got nothing \(pass a target like/,
      ],
      [[{ text: "x" }, { to: " " }], /target\.to must be a non-empty string, got a blank string/],
    ];
    for (const [args, message] of cases) {
      const error = await send(...args).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PayloadError);
      expect((error as Error).message).toMatch(message);
    }
    expect(emulator.observe()).toEqual([]);
  });

  it("sends through a token, a grammY Api or a grammY Bot", async () => {
    const options = { client: { apiRoot: emulator.apiRoot } };
    const adapters = [
      adapter(),
      createTelegramAdapter({ client: new Api(emulator.token, options.client) }),
      createTelegramAdapter({ client: new Bot(emulator.token, options) }),
    ];
    for (const [index, each] of adapters.entries()) {
      const receipt = await each.send({ text: `via **${index}**` }, { to: "42" });
      expect(receipt.ok).toBe(true);
    }
    expect(emulator.observe().map((m) => m.text)).toEqual(["via 0", "via 1", "via 2"]);
    expect(adapters[0]?.capabilities).toEqual(telegramCapabilities);
  });

  it("splits on the visible length: markup and escapes do not count against 4096", async () => {
    const words = Array.from({ length: 1400 }, (_, i) => `**a&b${i % 10}**`);
    const receipt = await adapter().send({ text: words.join(" ") }, { to: "42" });
    expect(receipt.ok).toBe(true);
    const texts = emulator.observe().map((m) => m.text ?? "");
    expect(texts).toHaveLength(2);
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(4096);
    expect(texts.join(" ").split(/\s+/)).toEqual(words.map((w) => w.replaceAll("*", "")));
  });

  it("resends refused markup as plain text and reports the degradation", async () => {
    emulator.inject({
      kind: "reject",
      description: 'Bad Request: can\'t parse entities: Unsupported start tag "x"',
    });
    const receipt = await adapter().send({ text: "**Start** of the message" }, { to: "42" });
    expect(receipt.ok).toBe(true);
    expect(receipt.degraded).toEqual([
      expect.objectContaining({ part: 0, from: "telegram-html", to: "plain" }),
    ]);
    expect(emulator.observe()).toEqual([{ kind: "text", text: "Start of the message" }]);
  });

  it("falls back from a refused voice note to an audio file", async () => {
    emulator.inject({ kind: "reject", description: "Bad Request: VOICE_MESSAGES_FORBIDDEN" });
    const receipt = await adapter().send(
      {
        text: "",
        audioAsVoice: true,
        media: [{ mimeType: "audio/ogg", data: fixtureBytes("ogg"), fileName: "v.ogg" }],
      },
      { to: "42" },
    );
    expect(receipt.ok).toBe(true);
    expect(receipt.messages.map((m) => m.kind)).toEqual(["audio"]);
    expect(receipt.degraded.map((d) => [d.from, d.to])).toEqual([["voice", "audio"]]);
    expect(emulator.observe()).toEqual([
      expect.objectContaining({ kind: "audio", sha256: fixtureSha256("ogg") }),
    ]);
  });
});
