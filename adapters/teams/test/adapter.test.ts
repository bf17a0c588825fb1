/**
 * The adapter over the emulator: mentions that cannot be forged, conversations the bot is not
 * in, channel threads, small images inline, larger ones and other files by the link of
 * `media.host` (and a failure naming `media.host` without one), one activity per visible
 * message, edits and deletes.
 */

import { crc32 } from "node:zlib";
import { fixtureBytes, fixturePath, fixtureSha256 } from "@outbox/conformance";
import { TargetNotFoundError, UnsupportedFeatureError } from "@outbox/core";
import { afterEach, describe, expect, it } from "vitest";
import { createTeamsAdapter, INLINE_IMAGE_MAX_BYTES, type TeamsAdapterConfig } from "../src/index.js";
import {
  type EmulatedConversation,
  emulatorConfig,
  startTeamsEmulator,
  type TeamsEmulator,
} from "../src/testing/index.js";

const CHAT = "a:1adapter-test";
const CHANNEL = "19:adapter-test@thread.tacv2";
const root = fixturePath("png").replace(/[^/]+$/, "");
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const e of open.splice(0).reverse()) await e.close();
});

async function setup(
  config: Partial<TeamsAdapterConfig> = {},
  conversations: EmulatedConversation[] = [{ id: CHAT }, { id: CHANNEL, type: "channel" }],
): Promise<{ e: TeamsEmulator; adapter: ReturnType<typeof createTeamsAdapter> }> {
  const e = await startTeamsEmulator({ conversations });
  open.push(e);
  const adapter = createTeamsAdapter({
    ...emulatorConfig(e),
    media: { localRoots: [root], host: e.mediaHost },
    retry: { maxRetries: 0 },
    ...config,
  });
  open.push({ close: async () => adapter.close?.() });
  return { e, adapter };
}

describe("Teams adapter", () => {
  it("writes `<at>` in the reply as text: no mention, no entities", async () => {
    const { e, adapter } = await setup();
    const receipt = await adapter.send(
      { text: 'Hi <at id="29:1abc">Everyone</at> and <at>General</at>' },
      { to: CHAT },
    );
    expect(receipt.ok).toBe(true);
    const [shown] = e.observe(CHAT);
    expect(shown?.text).toBe('Hi <at id="29:1abc">Everyone</at> and <at>General</at>');
    expect(shown?.mentions).toBeUndefined();
    const sent = e.history(CHAT)[0]?.activity as Record<string, unknown>;
    expect(sent.entities).toBeUndefined();
    expect(String(sent.text)).not.toMatch(/<at/);
  });

  it("a conversation the bot is not in is a TargetNotFoundError naming the install", async () => {
    const { adapter } = await setup({}, [{ id: CHAT, member: false }]);
    const receipt = await adapter.send({ text: "hi" }, { to: CHAT });
    const error = receipt.failures[0]?.error;
    expect(error).toBeInstanceOf(TargetNotFoundError);
    expect(error?.message).toMatch(/BotNotInConversationRoster.*install the app/);
  });

  it("posts in a channel thread, and a root that is not there is a missing thread", async () => {
    const { e, adapter } = await setup();
    const first = await adapter.send({ text: "root" }, { to: CHANNEL });
    const rootId = first.messages[0]?.id as string;
    const reply = await adapter.send({ text: "in the thread" }, { to: CHANNEL, thread: rootId });
    expect(reply.ok).toBe(true);
    expect(e.observe(CHANNEL).map((m) => m.thread)).toEqual([undefined, rootId]);
    const missing = await adapter.send({ text: "nowhere" }, { to: CHANNEL, thread: "1699999999999" });
    expect(missing.failures[0]?.error).toMatchObject({ missing: "thread" });
    expect(missing.failures[0]?.error).toBeInstanceOf(TargetNotFoundError);
  });

  it("sends a small image inline without a media host, text and file as separate activities with their own ids", async () => {
    const { e, adapter } = await setup({ media: { localRoots: [root] } });
    const receipt = await adapter.send({ text: "Look:", mediaUrls: [fixturePath("png")] }, { to: CHAT });
    expect(receipt.ok).toBe(true);
    expect(receipt.messages.map((m) => m.kind)).toEqual(["text", "image"]);
    expect(new Set(receipt.messages.map((m) => m.id)).size).toBe(2);
    const activities = e.history(CHAT).map((a) => a.activity);
    expect(activities.every((a) => a.text === undefined || a.attachments === undefined)).toBe(true);
    expect(e.observe(CHAT)[1]).toMatchObject({
      kind: "image",
      sha256: fixtureSha256("png"),
      bytes: fixtureBytes("png").length,
    });
    const inline = `data:image/png;base64,${fixtureBytes("png").toString("base64")}`;
    expect(activities[1]?.attachments).toMatchObject([{ contentType: "image/png", contentUrl: inline }]);
    expect(e.urlFetches).toEqual([]);
    // Uploaded bytes (inline): no receipt entry says otherwise.
    expect(receipt.messages[1]?.media).toBeUndefined();
  });

  it("sends an image over the inline limit as an image by its media.host link, said in the receipt", async () => {
    const { e, adapter } = await setup();
    const big = pngOver(INLINE_IMAGE_MAX_BYTES);
    const receipt = await adapter.send(
      { media: [{ data: big, mimeType: "image/png", fileName: "big.png" }] },
      { to: CHAT },
    );
    expect(receipt.ok).toBe(true);
    expect(receipt.degraded).toEqual([]);
    expect(receipt.messages.map((m) => m.kind)).toEqual(["image"]);
    expect(receipt.messages[0]?.media).toMatchObject([{ source: 0, via: "hosted" }]);
    expect(e.history(CHAT)[0]?.activity.attachments).toMatchObject([
      { contentType: "image/png", contentUrl: e.urlFetches[0] },
    ]);
    expect(e.observe(CHAT)[0]).toMatchObject({ kind: "image", bytes: big.length });
  });

  it("without a media host, an image over the inline limit fails before any call, its action naming media.host", async () => {
    const { e, adapter } = await setup({ media: { localRoots: [root] } });
    const big = pngOver(INLINE_IMAGE_MAX_BYTES);
    const receipt = await adapter.send(
      { text: "Chart:", media: [{ data: big, mimeType: "image/png", fileName: "big.png" }] },
      { to: CHAT },
    );
    expect(receipt.messages.map((m) => m.kind)).toEqual(["text"]);
    expect(receipt.failures[0]?.error).toBeInstanceOf(UnsupportedFeatureError);
    expect(receipt.failures[0]?.action).toMatch(/set media\.host/);
    expect(e.requests.map((r) => r.method)).toEqual(["sendToConversation"]);
  });

  it("sends a PDF and a video through the media host, as cards linking the files", async () => {
    const { e, adapter } = await setup();
    const receipt = await adapter.send({ mediaUrls: [fixturePath("pdf"), fixturePath("mp4")] }, { to: CHAT });
    expect(receipt.ok).toBe(true);
    expect(receipt.degraded.map((d) => `${d.from}→${d.to}`)).toEqual(["video→document"]);
    // Core put each on media.host and handed the link: the receipt says so, with the expiry.
    expect(receipt.messages.map((m) => m.media?.map((entry) => entry.via))).toEqual([["hosted"], ["hosted"]]);
    expect(receipt.messages[0]?.media?.[0]?.expiresAt).toBeGreaterThan(Date.now());
    expect(e.urlFetches).toHaveLength(2);
    expect(e.observe(CHAT)).toMatchObject([
      { kind: "document", fileName: "doc.pdf", mimeType: "application/pdf", sha256: fixtureSha256("pdf") },
      { kind: "document", fileName: "clip.mp4", mimeType: "video/mp4", sha256: fixtureSha256("mp4") },
    ]);
  });

  it("without a media host, a file that needs one fails before any call, its action naming media.host", async () => {
    const { e, adapter } = await setup({ media: { localRoots: [root] } });
    const receipt = await adapter.send({ text: "The file:", mediaUrls: [fixturePath("pdf")] }, { to: CHAT });
    expect(receipt.messages.map((m) => m.kind)).toEqual(["text"]);
    const [failure] = receipt.failures;
    expect(failure?.error).toBeInstanceOf(UnsupportedFeatureError);
    expect(failure?.error.message).toMatch(/no media host is configured/);
    expect(failure?.action).toMatch(/set media\.host/);
    expect(e.requests.map((r) => r.method)).toEqual(["sendToConversation"]);
  });

  it("settles a live preview by editing it, the emulator keeping the revisions", async () => {
    const { e, adapter } = await setup();
    const preview = adapter.preview?.({ to: CHAT });
    preview?.update("Draft");
    const receipt = await preview?.settle({ text: "Final **text**" });
    expect(receipt?.ok).toBe(true);
    const shown = e.observe(CHAT);
    expect(shown.map((m) => m.text)).toEqual(["Final text"]);
    expect(shown[0]?.revisions).toEqual(["Draft"]);
    expect(e.requests.map((r) => r.method)).toEqual(["sendToConversation", "updateActivity"]);
  });

  it("deletes the preview when the reply opens with a file", async () => {
    const { e, adapter } = await setup();
    const preview = adapter.preview?.({ to: CHAT });
    preview?.update("Draft");
    const receipt = await preview?.settle({ mediaUrls: [fixturePath("png")] });
    expect(receipt?.ok).toBe(true);
    expect(e.observe(CHAT).map((m) => m.kind)).toEqual(["image"]);
    expect(e.requests.map((r) => r.method)).toContain("deleteActivity");
  });
});

/** The PNG fixture grown past `bytes` by a text chunk before its end: a valid image Teams cannot take inline. */
function pngOver(bytes: number): Buffer {
  const png = fixtureBytes("png");
  const data = Buffer.concat([Buffer.from("Comment\0", "latin1"), Buffer.alloc(bytes, "a")]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write("tEXt", 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  const end = png.length - 12; // IEND: length, type, CRC
  return Buffer.concat([png.subarray(0, end), head, data, crc, png.subarray(end)]);
}
