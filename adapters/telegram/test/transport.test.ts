import { createHash } from "node:crypto";
import {
  AuthError,
  type LoadedMedia,
  PlatformError,
  RateLimitedError,
  TargetNotFoundError,
  TransportError,
  UnsupportedFeatureError,
} from "@outbox/core";
import { Api } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { telegramCapabilities } from "../src/capabilities.js";
import { startTelegramEmulator, type TelegramEmulator } from "../src/testing/index.js";
import { createTelegramTransport } from "../src/transport/transport.js";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5f1e0fc0000000049454e44ae426082",
  "hex",
);
const OGG = Buffer.concat([Buffer.from("OggS"), Buffer.alloc(60, 1)]);
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function loaded(bytes: Buffer, extra: Partial<LoadedMedia> = {}): LoadedMedia & { opened: number } {
  const media = {
    kind: "image" as const,
    mimeType: "image/png",
    fileName: "red dot.png",
    size: bytes.length,
    source: { type: "inline" as const },
    opened: 0,
    async *open() {
      media.opened += 1;
      yield bytes;
    },
    ...extra,
  };
  return media;
}

let emulator: TelegramEmulator;
let transport: ReturnType<typeof createTelegramTransport>;
const target = { to: "42" };

beforeEach(async () => {
  emulator = await startTelegramEmulator({
    chats: [{ id: 42, topics: [7] }],
    rateLimits: false,
    fetchUrl: async (url) =>
      url.endsWith("/red.png")
        ? {
            status: 200,
            body: (async function* () {
              yield PNG;
            })(),
          }
        : { status: 404, body: null },
  });
  const api = new Api(emulator.token, { apiRoot: emulator.apiRoot, timeoutSeconds: 5 });
  transport = createTelegramTransport(api, { capabilities: telegramCapabilities, linkPreview: false });
});
afterEach(() => emulator.close());

describe("Telegram transport: text", () => {
  it("sends HTML with the thread (General topic omitted) and the reply", async () => {
    const anchor = emulator.seedMessage(42, "question");
    const sent = await transport.sendText({
      type: "text",
      target,
      thread: "7",
      replyTo: anchor,
      text: { text: "<b>hi</b> &amp; bye", plain: "hi & bye" },
    });
    expect(sent).toEqual({ id: expect.stringMatching(/^\d+$/) });
    await transport.sendText({
      type: "text",
      target,
      thread: "1",
      text: { text: "general", plain: "general" },
    });
    expect(emulator.observe()).toEqual([
      {
        kind: "text",
        text: "hi & bye",
        formatting: [{ kind: "bold", offset: 0, length: 2 }],
        thread: "7",
        replyTo: anchor,
      },
      { kind: "text", text: "general" },
    ]);
  });

  it("resends refused markup once as plain text, whole, and says so", async () => {
    const sent = await transport.sendText({
      type: "text",
      target,
      text: { text: "<b>start of it", plain: "start of it" },
    });
    expect(sent.degraded).toMatchObject({ from: "telegram-html", to: "plain" });
    expect(emulator.observe()).toEqual([{ kind: "text", text: "start of it" }]);
  });

  it("reports a reply whose target vanished as degraded, not lost", async () => {
    const sent = await transport.sendText({
      type: "text",
      target,
      replyTo: "999",
      text: { text: "x", plain: "x" },
    });
    expect(sent.degraded).toMatchObject({ from: "reply", to: "none" });
    expect(emulator.observe()).toEqual([{ kind: "text", text: "x" }]);
  });
});

describe("Telegram transport: media", () => {
  it("streams uploads from open(), re-opening the source for every send", async () => {
    const media = loaded(PNG);
    await transport.sendMedia({
      type: "media",
      target,
      kind: "image",
      media,
      caption: { text: "<i>c</i>", plain: "c" },
    });
    await transport.sendMedia({ type: "media", target, kind: "document", media });
    expect(media.opened).toBe(2);
    expect(emulator.observe()).toEqual([
      {
        kind: "image",
        caption: "c",
        formatting: [{ kind: "italic", offset: 0, length: 1 }],
        fileName: "red dot.png",
        mimeType: "image/png",
        sha256: sha(PNG),
        bytes: PNG.length,
      },
      {
        kind: "document",
        fileName: "red dot.png",
        mimeType: "image/png",
        sha256: sha(PNG),
        bytes: PNG.length,
      },
    ]);
  });

  it("lets Telegram fetch the URL it is given, and uploads when it cannot", async () => {
    const good = loaded(PNG, { source: { type: "url", url: "https://media.test/red.png" } });
    const url = "https://media.test/red.png";
    const fetched = await transport.sendMedia({ type: "media", target, kind: "image", media: good, url });
    expect(fetched).not.toHaveProperty("degraded");
    expect(fetched).not.toHaveProperty("uploadedInstead");
    expect(good.opened).toBe(0);
    const bad = loaded(PNG, { source: { type: "url", url: "https://media.test/gone.png" } });
    const sent = await transport.sendMedia({
      type: "media",
      target,
      kind: "image",
      media: bad,
      url: "https://media.test/gone.png",
    });
    expect(sent.degraded).toMatchObject({ from: "url", to: "upload" });
    expect(sent.uploadedInstead).toEqual([0]);
    expect(bad.opened).toBe(1);
    expect(emulator.urlFetches).toEqual(["https://media.test/red.png", "https://media.test/gone.png"]);
    expect(emulator.observe().map((m) => m.sha256)).toEqual([sha(PNG), sha(PNG)]);
  });

  it("uploads URL media over the by-URL limit without asking Telegram to fetch it", async () => {
    const big = loaded(PNG, {
      size: 6 * 1024 * 1024,
      source: { type: "url", url: "https://media.test/red.png" },
    });
    const sent = await transport.sendMedia({
      type: "media",
      target,
      kind: "image",
      media: big,
      url: "https://media.test/red.png",
    });
    expect(emulator.urlFetches).toEqual([]);
    expect(sent.uploadedInstead).toEqual([0]);
  });

  it("uploads an https item given no URL: handing it over is the plan's choice (media.passThrough)", async () => {
    const item = loaded(PNG, { source: { type: "url", url: "https://media.test/red.png" } });
    const sent = await transport.sendMedia({ type: "media", target, kind: "image", media: item });
    expect(emulator.urlFetches).toEqual([]);
    expect(item.opened).toBe(1);
    expect(sent).not.toHaveProperty("uploadedInstead");
  });

  it("sends voice notes, and turns a refused one into UnsupportedFeatureError", async () => {
    const voice = loaded(OGG, { kind: "audio", mimeType: "audio/ogg", fileName: "v.ogg", durationMs: 1200 });
    await transport.sendMedia({ type: "media", target, kind: "voice", media: voice });
    expect(emulator.observe()[0]).toMatchObject({ kind: "voice", mimeType: "audio/ogg" });
    emulator.inject({ kind: "reject", description: "Bad Request: VOICE_MESSAGES_FORBIDDEN" });
    const refused = transport.sendMedia({ type: "media", target, kind: "voice", media: voice });
    await expect(refused).rejects.toBeInstanceOf(UnsupportedFeatureError);
  });

  it("sends albums with the caption on the first item", async () => {
    const sent = await transport.sendAlbum!({
      type: "album",
      target,
      items: [
        { kind: "image", media: loaded(PNG) },
        { kind: "image", media: loaded(PNG, { fileName: "b.png" }) },
      ],
      caption: { text: "<b>two</b>", plain: "two" },
    });
    expect(sent.memberIds).toHaveLength(2);
    expect(sent.id).toBe(sent.memberIds?.[0]);
    const [album] = emulator.observe();
    expect(album).toMatchObject({ kind: "album", caption: "two" });
    expect(album?.items?.map((i) => i.fileName)).toEqual(["red dot.png", "b.png"]);
  });
});

describe("Telegram transport: errors", () => {
  const text = { type: "text" as const, target, text: { text: "x", plain: "x" } };

  it("maps 429, 5xx, resets, refusals and missing chats onto core's errors", async () => {
    emulator.inject({ kind: "rate-limit", retryAfterMs: 2000 });
    const limited = await transport.sendText(text).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterMs).toBe(2000);
    emulator.inject({ kind: "server-error", status: 503 });
    const server = await transport.sendText(text).catch((e: unknown) => e);
    expect(server).toBeInstanceOf(PlatformError);
    expect((server as PlatformError).status).toBe(503);
    emulator.inject({ kind: "reset" });
    const reset = await transport.sendText(text).catch((e: unknown) => e);
    expect(reset).toBeInstanceOf(TransportError);
    expect((reset as TransportError).ambiguous).toBe(true);
    const missing = await transport.sendText({ ...text, target: { to: "-5" } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(TargetNotFoundError);
    expect((missing as TargetNotFoundError).missing).toBe("chat");
    const thread = await transport.sendText({ ...text, thread: "8" }).catch((e: unknown) => e);
    expect((thread as TargetNotFoundError).missing).toBe("thread");
  });

  it("maps a bad token to AuthError and a refused connection (port 9, nothing listens) to an unambiguous TransportError", async () => {
    const wrong = createTelegramTransport(new Api("1:bad", { apiRoot: emulator.apiRoot }), {
      capabilities: telegramCapabilities,
      linkPreview: true,
    });
    await expect(wrong.sendText(text)).rejects.toBeInstanceOf(AuthError);
    const refused = createTelegramTransport(new Api(emulator.token, { apiRoot: "http://127.0.0.1:9" }), {
      capabilities: telegramCapabilities,
      linkPreview: true,
    });
    const error = await refused.sendText(text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).ambiguous).toBe(false);
  });
});
