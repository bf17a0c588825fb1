/**
 * The adapter over the emulator: config checks before any call, Graph errors as core's typed
 * errors with the code and what to do, captions only where WhatsApp takes them, unsupported
 * types refused before any call, voice notes, an integrator's own dispatcher; media by
 * `link` only for https URLs the policy accepted, with no secret of the URL in the receipt.
 */
import { conformanceMedia, fixtureBytes, fixturePath } from "@outbox/conformance";
import {
  AuthError,
  ConfigError,
  MediaError,
  PlatformError,
  RateLimitedError,
  TargetNotFoundError,
} from "@outbox/core";
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { createWhatsAppAdapter, type WhatsAppAdapterConfig } from "../src/index.js";
import { startWhatsAppEmulator, type WhatsAppEmulatorOptions } from "../src/testing/index.js";

const TO = "15550001111";
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const e of open.splice(0).reverse()) await e.close();
});

async function setup(options: WhatsAppEmulatorOptions = {}, config: Partial<WhatsAppAdapterConfig> = {}) {
  const e = await startWhatsAppEmulator(options);
  open.push(e);
  e.seedMessage(TO, "hello");
  const adapter = createWhatsAppAdapter({
    token: e.token,
    phoneNumberId: e.phoneNumberId,
    graphApiUrl: e.graphApiUrl,
    media: { localRoots: [fixturePath("png").replace(/[^/]+$/, "")] },
    retry: { maxRetries: 0 },
    ...config,
  });
  open.push({ close: async () => adapter.close?.() });
  return { e, adapter };
}

const failure = async (adapter: ReturnType<typeof createWhatsAppAdapter>, to = TO) => {
  const receipt = await adapter.send({ text: "hi" }, { to });
  expect(receipt.ok).toBe(false);
  return receipt.failures[0]?.error;
};

describe("createWhatsAppAdapter", () => {
  it("needs a token and a phone number id (a ConfigError naming them and the fix, before any call)", () => {
    expect(() => createWhatsAppAdapter()).toThrow(ConfigError);
    expect(() => createWhatsAppAdapter({ token: "", phoneNumberId: "1" })).toThrow(
      /^createWhatsAppAdapter: `token` is missing; fix: /,
    );
    expect(() => createWhatsAppAdapter({ token: "EAAx" } as WhatsAppAdapterConfig)).toThrow(
      /`phoneNumberId` is missing; fix: .*OUTBOX_WHATSAPP_PHONE_NUMBER_ID/,
    );
    expect(() => createWhatsAppAdapter({} as WhatsAppAdapterConfig)).toThrow(
      /`token` and `phoneNumberId` are missing/,
    );
  });

  it("refuses a graphApiUrl that is not an http(s) URL (a ConfigError, before any call)", () => {
    for (const graphApiUrl of ["graph.facebook.com", "ftp://graph.example", "https://"])
      expect(() => createWhatsAppAdapter({ token: "EAAx", phoneNumberId: "1", graphApiUrl })).toThrow(
        /^createWhatsAppAdapter: `graphApiUrl` is not an http\(s\) URL; fix: /,
      );
  });

  it("maps 131047 (outside the 24-hour window) to a PlatformError that names the template rule", async () => {
    const { adapter } = await setup();
    const error = await failure(adapter, "15550002222");
    expect(error).toBeInstanceOf(PlatformError);
    expect(error?.message).toMatch(/error 131047.*only an approved template message can be sent/);
    expect((error as PlatformError).description).toMatch(/^131047: /);
  });

  it("maps 131030 to TargetNotFoundError saying to add the number to the allowed list", async () => {
    const { adapter } = await setup({ allowedRecipients: ["15550009999"] });
    const error = await failure(adapter);
    expect(error).toBeInstanceOf(TargetNotFoundError);
    expect(error?.message).toMatch(/131030.*add it under WhatsApp > API Setup/);
  });

  it("maps 190 to AuthError without the token in any message", async () => {
    const { adapter } = await setup({ token: "EAAright-token" }, { token: "EAAwrong-token-value" });
    const error = await failure(adapter);
    expect(error).toBeInstanceOf(AuthError);
    expect(error?.message).toMatch(/error 190.*permanent System User token/);
    expect(JSON.stringify(error) + String(error?.message)).not.toContain("EAAwrong-token-value");
  });

  it("maps 131056 (pair rate) to a RateLimitedError for the person, waiting the pair interval", async () => {
    const { adapter } = await setup(
      { limits: { pairBurst: 1, pairIntervalMs: 60_000 } },
      { limits: { pairBurst: 5, pairIntervalMs: 1 } },
    );
    await adapter.send({ text: "one" }, { to: TO });
    const error = await failure(adapter);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error?.message).toMatch(/131056.*pair rate limit/);
    expect((error as RateLimitedError).retryAfterMs).toBe(6000);
  });

  it("sends the text first when the first item is audio (WhatsApp audio has no caption)", async () => {
    const { e, adapter } = await setup();
    const receipt = await adapter.send({ text: "**Listen**", mediaUrls: [fixturePath("mp3")] }, { to: TO });
    expect(receipt.ok).toBe(true);
    expect(e.observe(TO).map((m) => [m.kind, m.text ?? m.caption])).toEqual([
      ["text", "Listen"],
      ["audio", undefined],
    ]);
  });

  it("refuses a GIF before any call (no WhatsApp message type takes it), and still sends the rest", async () => {
    const { e, adapter } = await setup();
    const receipt = await adapter.send(
      { text: "two", mediaUrls: [fixturePath("gif"), fixturePath("png")] },
      { to: TO },
    );
    expect(receipt.failures.map((f) => f.error.code)).toEqual(["media_unsupported_type"]);
    expect(receipt.failures[0]?.error.message).toMatch(/image\/gif cannot be sent here/);
    expect(e.observe(TO).map((m) => m.kind)).toEqual(["image"]);
    expect(e.requests.filter((r) => r.method === "media")).toHaveLength(1);
  });

  it("says in the receipt that a voice note over 512 KB shows without its play icon", async () => {
    const { e, adapter } = await setup();
    const ogg = fixtureBytes("ogg");
    const big = Buffer.concat([ogg, Buffer.alloc(600 * 1024 - ogg.length)]);
    const receipt = await adapter.send(
      {
        media: [{ data: new Uint8Array(big), mimeType: "audio/ogg", fileName: "v.ogg" }],
        audioAsVoice: true,
      },
      { to: TO },
    );
    expect(e.observe(TO).map((m) => m.kind)).toEqual(["voice"]);
    expect(receipt.degraded).toEqual([expect.objectContaining({ from: "voice", to: "audio" })]);
  });

  it("sends through an integrator's dispatcher and leaves it open", async () => {
    const dispatcher = new Agent();
    open.push({ close: () => dispatcher.close() });
    const { e, adapter } = await setup({}, { dispatcher });
    expect((await adapter.send({ text: "via yours" }, { to: TO })).ok).toBe(true);
    await adapter.close?.();
    expect(dispatcher.closed).toBe(false);
    expect(e.observe(TO).map((m) => m.text)).toEqual(["via yours"]);
  });
});

/** The adapter with `mediaByLink: "link"` (or `config`) and the conformance media server's policy. */
async function linkSetup(config: Partial<WhatsAppAdapterConfig> = { mediaByLink: "link" }) {
  const media = await conformanceMedia();
  return { ...(await setup({ limits: false }, { media: media.policy, ...config })), media };
}

const edges = (e: { requests: readonly { method: string }[] }) => e.requests.map((r) => r.method);

describe("media by link", () => {
  it("sends an https item the policy accepted as its link, captioned, without uploading it", async () => {
    const { e, adapter, media } = await linkSetup();
    const url = media.url("jpeg");
    const receipt = await adapter.send({ text: "A **photo**", mediaUrls: [url] }, { to: TO });
    expect(receipt.ok).toBe(true);
    expect(edges(e)).toEqual(["messages"]);
    const [sent] = e.history(TO).filter((m) => !m.inbound);
    expect(sent).toMatchObject({ type: "image", link: url, body: "A *photo*" });
    expect(sent?.media).toBeUndefined();
    expect(e.observe(TO)).toEqual([
      expect.objectContaining({ kind: "image", caption: "A photo", fileName: "photo.jpg" }),
    ]);
  });

  it("uploads by default, and uploads local files even with links on", async () => {
    const { e, adapter, media } = await linkSetup({});
    expect((await adapter.send({ text: "", mediaUrls: [media.url("jpeg")] }, { to: TO })).ok).toBe(true);
    expect(edges(e)).toEqual(["media", "messages"]);
    const linked = await linkSetup();
    expect((await linked.adapter.send({ text: "", mediaUrls: [media.file("png")] }, { to: TO })).ok).toBe(
      true,
    );
    expect(edges(linked.e)).toEqual(["media", "messages"]);
  });

  it("refuses an internal or plain-http URL with MediaError('blocked') before any connection or Graph call", async () => {
    const { e, adapter, media } = await linkSetup();
    const before = media.decoy.connections();
    for (const url of media.decoy.blockedUrls) {
      const receipt = await adapter.send({ text: "", mediaUrls: [url] }, { to: TO });
      expect(receipt.ok).toBe(false);
      const error = receipt.failures[0]?.error;
      expect(error).toBeInstanceOf(MediaError);
      expect((error as MediaError).reason).toBe("blocked");
    }
    expect(media.decoy.connections()).toBe(before);
    expect(e.requests).toEqual([]);
  });

  it("never hands over or shows a URL's credentials, and keeps a query secret out of the receipt", async () => {
    const { e, adapter, media } = await linkSetup();
    const good = new URL(media.url("png"));
    const credentialed = `https://bot:hunter2-secret@${good.host}${good.pathname}`;
    const signed = `${media.url("jpeg")}?X-Amz-Signature=s3cr3t-signature`;
    const receipt = await adapter.send({ text: "", mediaUrls: [credentialed, signed] }, { to: TO });
    expect(receipt.failures.map((f) => (f.error as MediaError).reason)).toEqual(["blocked"]);
    // The signed URL is what the platform needs to fetch: it goes whole, and only there.
    expect(e.history(TO).flatMap((m) => (m.inbound ? [] : [m.link]))).toEqual([signed]);
    const shown = JSON.stringify(receipt, (_key, value) =>
      value instanceof Error ? { ...value, message: value.message } : value,
    );
    expect(shown).not.toMatch(/hunter2|s3cr3t/);
  });
});
