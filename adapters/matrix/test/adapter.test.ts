/**
 * The Matrix adapter against its emulator: txnId idempotency across an ambiguous failure,
 * replies to unknown events, encrypted rooms, typed errors, streamed uploads, edits.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixturePath } from "@outbox/conformance";
import {
  AuthError,
  ConfigError,
  MediaError,
  TargetNotFoundError,
  UnsupportedFeatureError,
} from "@outbox/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMatrixAdapter, type MatrixAdapterConfig } from "../src/index.js";
import { DEFAULT_ROOM, type MatrixEmulator, startMatrixEmulator } from "../src/testing/index.js";

const ENCRYPTED = "!secret:outbox.test";
const NOT_JOINED = "!elsewhere:outbox.test";

let emulator: MatrixEmulator;
beforeEach(async () => {
  emulator = await startMatrixEmulator({
    rateLimit: false,
    rooms: [
      { id: DEFAULT_ROOM, aliases: ["#general:outbox.test"] },
      { id: ENCRYPTED, encrypted: true },
      { id: NOT_JOINED, joined: false },
    ],
  });
});
afterEach(() => emulator.close());

const adapter = (config: Partial<MatrixAdapterConfig> = {}) =>
  createMatrixAdapter({
    homeserver: emulator.homeserver,
    accessToken: emulator.accessToken,
    media: { localRoots: [fixturePath("png").replace(/[^/]+$/, "")] },
    ...config,
  });

const sends = () => emulator.requests.filter((r) => r.route.includes("/send/m.room.message/"));

describe("createMatrixAdapter", () => {
  it("refuses a missing config, homeserver or accessToken with a ConfigError naming the field and the fix", () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [undefined, "", /^createMatrixAdapter: the config is missing; fix: /],
      [
        { accessToken: "syt_x" },
        "homeserver",
        /`homeserver` is not an http\(s\) URL; fix: .*https:\/\/matrix/,
      ],
      [
        { homeserver: "https://m.example", accessToken: " " },
        "accessToken",
        /`accessToken` is missing; fix: /,
      ],
    ];
    for (const [config, field, message] of cases) {
      let error: unknown;
      try {
        createMatrixAdapter(config as MatrixAdapterConfig);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).field).toBe(field);
      expect((error as ConfigError).message).toMatch(message);
    }
  });

  it("resends after a lost answer under the same txnId: one event, no ambiguous failure", async () => {
    emulator.inject({ kind: "reset-after-processed", method: "send" });
    const receipt = await adapter({ retry: { maxRetries: 2 } }).send(
      { text: "exactly once" },
      { to: DEFAULT_ROOM },
    );
    expect(receipt.failures).toEqual([]);
    expect(emulator.observe(DEFAULT_ROOM).map((m) => m.text)).toEqual(["exactly once"]);
    const [first, second] = sends();
    expect(first?.status).toBe(0);
    expect(second?.status).toBe(200);
    expect(second?.route).toBe(first?.route); // same txnId in the path
    expect(receipt.messages[0]?.id).toBe(emulator.events()[0]?.eventId);
  });

  it("two equal messages are two events (the txnId is per operation, never from the content)", async () => {
    const matrix = adapter();
    await matrix.send({ text: "same" }, { to: DEFAULT_ROOM });
    await matrix.send({ text: "same" }, { to: DEFAULT_ROOM });
    expect(emulator.observe(DEFAULT_ROOM)).toHaveLength(2);
  });

  it("never leaves a dangling quote: a reply to an unknown event goes without it, degraded", async () => {
    const receipt = await adapter().send(
      { text: "answer", replyToId: "$bm90LWEtcmVhbC1ldmVudC1pZC1hdC1hbGwtMDAwMDAwMDAw" },
      { to: DEFAULT_ROOM },
    );
    expect(receipt.failures).toEqual([]);
    expect(receipt.degraded).toEqual([expect.objectContaining({ part: 0, from: "reply" })]);
    expect(emulator.observe(DEFAULT_ROOM)[0]?.replyTo).toBeUndefined();
  });

  it("refuses an encrypted room by name, unless opted in", async () => {
    const refused = await adapter().send({ text: "secret" }, { to: ENCRYPTED });
    const error = refused.failures[0]?.error;
    expect(error).toBeInstanceOf(UnsupportedFeatureError);
    expect(error?.message).toMatch(
      /!secret:outbox\.test is end-to-end encrypted.*allowUnencryptedInEncryptedRooms/,
    );
    expect(emulator.observe(ENCRYPTED)).toEqual([]);
    const sent = await adapter({ allowUnencryptedInEncryptedRooms: true }).send(
      { text: "plain" },
      { to: ENCRYPTED },
    );
    expect(sent.ok).toBe(true);
  });

  it("maps M_FORBIDDEN, M_UNKNOWN_TOKEN and an unknown room id onto typed errors that say what to do", async () => {
    const forbidden = (await adapter().send({ text: "x" }, { to: NOT_JOINED })).failures[0]?.error;
    expect(forbidden).toBeInstanceOf(AuthError);
    expect(forbidden?.message).toMatch(/invite the bot's user to room !elsewhere:outbox\.test/);
    const token = (
      await adapter({ accessToken: "syt_wrong_token_0000" }).send({ text: "x" }, { to: DEFAULT_ROOM })
    ).failures[0]?.error;
    expect(token).toBeInstanceOf(AuthError);
    expect(token?.message).toMatch(/M_UNKNOWN_TOKEN.*log the bot in again/);
    expect(token?.message).not.toContain("syt_wrong_token_0000");
    const bad = (await adapter().send({ text: "x" }, { to: "general" })).failures[0]?.error;
    expect(bad).toBeInstanceOf(TargetNotFoundError);
    expect(emulator.requests).toHaveLength(2); // the bad room id made no call
  });

  it("resolves an alias once and sends to its room", async () => {
    const matrix = adapter();
    await matrix.send({ text: "one" }, { to: "#general:outbox.test" });
    await matrix.send({ text: "two" }, { to: "#general:outbox.test" });
    expect(emulator.observe(DEFAULT_ROOM)).toHaveLength(2);
    expect(emulator.requests.filter((r) => r.route.startsWith("GET /directory/room/"))).toHaveLength(1);
  });

  it("uploads with its length (Synapse requires Content-Length), then sends m.image with info from the bytes", async () => {
    const receipt = await adapter().send({ mediaUrls: [fixturePath("png")] }, { to: DEFAULT_ROOM });
    expect(receipt.ok).toBe(true);
    const upload = emulator.requests.find((r) => r.route === "POST /_matrix/media/v3/upload");
    expect(upload?.status).toBe(200);
    expect(upload?.transferEncoding).toBe("");
    const content = emulator.events()[0]?.content as { msgtype: string; info: Record<string, unknown> };
    expect(content.msgtype).toBe("m.image");
    expect(content.info).toMatchObject({
      mimetype: "image/png",
      size: expect.any(Number),
      w: expect.any(Number),
    });
  });

  it("edits in place with m.replace (revisions)", async () => {
    const preview = adapter({ rateLimit: { perSecond: 100, burst: 10 } }).preview?.(
      { to: DEFAULT_ROOM },
      { intervalMs: 10 },
    );
    preview?.update("Writing **the** answer");
    const receipt = await preview?.settle({ text: "The **final** answer." });
    expect(receipt?.ok).toBe(true);
    const [shown] = emulator.observe(DEFAULT_ROOM);
    expect(shown?.text).toBe("The final answer.");
    expect(shown?.revisions).toEqual(["Writing the answer"]);
    const edit = emulator.events()[1]?.content as Record<string, unknown>;
    expect(edit["m.relates_to"]).toMatchObject({ rel_type: "m.replace" });
    expect(edit.body).toBe("* The final answer.");
  });

  it("redacts a preview that cannot become the reply's first message", async () => {
    const preview = adapter({ rateLimit: { perSecond: 100, burst: 10 } }).preview?.(
      { to: DEFAULT_ROOM },
      { intervalMs: 10 },
    );
    preview?.update("Looking for the picture");
    const receipt = await preview?.settle({ mediaUrls: [fixturePath("png")] });
    expect(receipt?.ok).toBe(true);
    expect(emulator.observe(DEFAULT_ROOM).map((m) => m.kind)).toEqual(["image"]);
    expect(emulator.events().map((e) => e.type)).toContain("m.room.redaction");
  });

  it("sends a voice note as MSC3245 m.audio with the decoded duration and a 0–1024 waveform", async () => {
    const receipt = await adapter({ media: { localRoots: [fixturePath("ogg").replace(/[^/]+$/, "")] } }).send(
      { mediaUrls: [fixturePath("ogg")], audioAsVoice: true },
      { to: DEFAULT_ROOM },
    );
    expect(receipt.degraded).toEqual([]);
    expect(emulator.observe(DEFAULT_ROOM)[0]?.kind).toBe("voice");
    const content = emulator.events()[0]?.content as Record<string, { duration: number; waveform: number[] }>;
    const audio = content["org.matrix.msc1767.audio"];
    expect(content["org.matrix.msc3245.voice"]).toEqual({});
    expect(audio?.duration).toBeGreaterThan(0);
    expect((content.info as unknown as { duration: number }).duration).toBe(audio?.duration);
    expect(audio?.waveform.length).toBe(Math.min(100, Math.floor((audio?.duration ?? 0) / 100)));
    expect(Math.max(...(audio?.waveform ?? []))).toBeGreaterThan(0);
    expect(audio?.waveform.every((v) => Number.isInteger(v) && v >= 0 && v <= 1024)).toBe(true);
  });
});

describe("the upload limit", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "outbox-matrix-upload-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** A document of `bytes` bytes in the test's directory. */
  const file = async (bytes: number): Promise<string> => {
    const path = join(dir, "report.bin");
    await writeFile(path, Buffer.alloc(bytes, 7));
    return path;
  };
  const limited = async (homeserverBytes: number, adapterBytes: number) => {
    await emulator.close();
    emulator = await startMatrixEmulator({ rateLimit: false, maxUploadBytes: homeserverBytes });
    return adapter({ maxUploadBytes: adapterBytes, media: { localRoots: [dir] } });
  };

  it("a file over the declared limit is refused before any upload; one at the limit goes", async () => {
    const matrix = await limited(1024 * 1024, 1024 * 1024);
    const receipt = await matrix.send({ mediaUrls: [await file(1024 * 1024 + 1)] }, { to: DEFAULT_ROOM });
    const error = receipt.failures[0]?.error;
    expect(error).toBeInstanceOf(MediaError);
    expect((error as MediaError).reason).toBe("too-large");
    expect(emulator.requests.filter((r) => r.route.includes("/media/"))).toEqual([]);
    const fits = await matrix.send({ mediaUrls: [await file(1024 * 1024)] }, { to: DEFAULT_ROOM });
    expect(fits.failures).toEqual([]);
    expect(emulator.observe(DEFAULT_ROOM).map((m) => m.kind)).toEqual(["document"]);
  });

  it("a homeserver with a lower limit than the adapter was told answers 413 M_TOO_LARGE: a too-large MediaError saying what to lower", async () => {
    const matrix = await limited(1024 * 1024, 16 * 1024 * 1024);
    const receipt = await matrix.send({ mediaUrls: [await file(8 * 1024 * 1024)] }, { to: DEFAULT_ROOM });
    const error = receipt.failures[0]?.error;
    expect(error).toBeInstanceOf(MediaError);
    expect((error as MediaError).reason).toBe("too-large");
    expect(error?.message).toMatch(/M_TOO_LARGE.*Upload request body is too large.*lower maxUploadBytes/);
    const upload = emulator.requests.find((r) => r.route === "POST /_matrix/media/v3/upload");
    expect(upload?.status).toBe(413);
    expect(emulator.observe(DEFAULT_ROOM)).toEqual([]);
  });
});
