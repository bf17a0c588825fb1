import { describe, expect, it } from "vitest";
import { createAdapter } from "../../src/adapter/create-adapter.js";
import type { AlbumOperation, MediaOperation, TextOperation } from "../../src/adapter/types.js";
import { createMediaMemory } from "../../src/engine/media-memory.js";
import { PayloadError, TargetNotFoundError, UnsupportedFeatureError } from "../../src/errors/errors.js";
import { htmlRenderer } from "../markdown/support/html-renderer.js";
import { harness } from "./support/harness.js";
import { attach } from "./support/media-bytes.js";
import { testCapabilities } from "./support/recording-transport.js";

const to = { to: "chat1" };
const long = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} **bold** text that is long enough`).join(
  "\n\n",
);

describe("createAdapter: text", () => {
  it("sends rendered text and returns a receipt", async () => {
    const { send, transport } = harness();
    const receipt = await send({ text: "Hello **world** & <you>" }, to);
    expect(receipt).toEqual({
      ok: true,
      messages: [{ id: "m1", kind: "text", part: 0 }],
      failures: [],
      degraded: [],
    });
    const op = transport.calls[0]?.op as TextOperation;
    expect(op.text.text).toBe("Hello <b>world</b> &amp; &lt;you&gt;");
    expect(op.text.plain).toContain("Hello world");
  });

  it("hands a short text to the transport before send returns: it waits for nothing it need not", async () => {
    const { adapter, transport, clock } = harness({
      rateLimits: [{ scope: "target", limit: 1, intervalMs: 1_000 }],
    });
    const sending = adapter.send({ text: "Hello **world**" }, to);
    expect(transport.calls).toHaveLength(1);
    expect((await clock.run(sending)).ok).toBe(true);
    // A second send must wait for the limit's token: it is queued, not sent at once.
    const next = adapter.send({ text: "Again" }, to);
    expect(transport.calls).toHaveLength(1);
    expect((await clock.run(next)).ok).toBe(true);
    expect(transport.calls.map((call) => call.at)).toEqual([0, 1_000]);
  });

  it("splits long text within the limit, one part per chunk, nothing lost", async () => {
    const { send, transport } = harness();
    const receipt = await send({ text: long }, to);
    expect(receipt.messages.length).toBeGreaterThan(1);
    expect(receipt.messages.map((m) => m.part)).toEqual(receipt.messages.map((_, i) => i));
    const texts = transport.calls.map((c) => (c.op as TextOperation).text.text);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(100);
    expect(texts.join(" ").replace(/<\/?b>|\s/g, "")).toBe(long.replace(/\*\*|\s/g, ""));
  });

  it("throws PayloadError for an invalid target before any call", async () => {
    const { adapter, transport } = harness();
    await expect(adapter.send({ text: "x" }, { to: "" })).rejects.toBeInstanceOf(PayloadError);
    await expect(adapter.send({ text: "x" }, to, { idempotencyKey: " " })).rejects.toBeInstanceOf(
      PayloadError,
    );
    await expect(
      adapter.send({ text: "x" }, to, { replyMode: "sometimes" as "first" }),
    ).rejects.toMatchObject({ issues: [{ path: ["options", "replyMode"] }] });
    expect(transport.calls).toHaveLength(0);
  });

  it("throws PayloadError for an invalid payload before any call", async () => {
    const { adapter, transport } = harness();
    await expect(adapter.send({ text: 42 } as unknown as { text: string }, to)).rejects.toBeInstanceOf(
      PayloadError,
    );
    expect(transport.calls).toHaveLength(0);
  });

  it("validates and freezes capabilities", () => {
    const { adapter } = harness();
    expect(Object.isFrozen(adapter.capabilities.media.kinds)).toBe(true);
    const bad = { ...testCapabilities(), text: { maxLength: -1, format: "x" } };
    expect(() =>
      createAdapter({
        name: "bad",
        capabilities: bad,
        renderer: htmlRenderer,
        transport: { sendText: async () => ({ id: "1" }), sendMedia: async () => ({ id: "1" }) },
      }),
    ).toThrow(/text.maxLength/);
    const chunky = { ...testCapabilities(), text: { maxLength: 10, chunkLength: 20, format: "x" } };
    expect(() =>
      createAdapter({
        name: "bad",
        capabilities: chunky,
        renderer: htmlRenderer,
        transport: {
          sendText: async () => ({ id: "1" }),
          sendMedia: async () => ({ id: "1" }),
          sendAlbum: async () => ({ id: "1" }),
        },
      }),
    ).toThrow(/chunkLength/);
    expect(() =>
      createAdapter({
        name: "bad",
        capabilities: testCapabilities(),
        renderer: htmlRenderer,
        transport: { sendText: async () => ({ id: "1" }), sendMedia: async () => ({ id: "1" }) },
      }),
    ).toThrow(/sendAlbum/);
  });
});

describe("createAdapter: media, captions, albums", () => {
  it("puts text that fits the caption limit on the first media message", async () => {
    const { send, transport } = harness();
    const receipt = await send({ text: "Look", media: [attach.png()] }, to);
    expect(receipt.messages).toEqual([{ id: "m1", kind: "image", part: 0 }]);
    expect((transport.op(0) as MediaOperation).caption?.text).toBe("Look");
  });

  it("sends text first when it is over the caption limit, then media without caption", async () => {
    const { send, transport } = harness();
    const receipt = await send({ text: "x ".repeat(40), media: [attach.png()] }, to);
    expect(receipt.messages.map((m) => m.kind)).toEqual(["text", "image"]);
    expect((transport.op(1) as MediaOperation).caption).toBeUndefined();
  });

  it("groups consecutive images into one album part and keeps documents apart", async () => {
    const { send, transport } = harness();
    const receipt = await send(
      { text: "Album", media: [attach.png(1), attach.png(2), attach.png(3), attach.pdf()] },
      to,
    );
    expect(receipt.messages).toEqual([
      { id: "m1", kind: "album", part: 0 },
      { id: "m4", kind: "document", part: 1 },
    ]);
    expect(transport.calls[0]?.op.type).toBe("album");
  });

  it("splits 11 images into two albums within maxItems", async () => {
    const { send, transport } = harness();
    const receipt = await send({ media: Array.from({ length: 11 }, (_, i) => attach.png(i + 1)) }, to);
    expect(receipt.messages.map((m) => m.kind)).toEqual(["album", "album"]);
    expect(transport.calls.map((c) => (c.op.type === "album" ? c.op.items.length : 0))).toEqual([6, 5]);
  });

  it("sends an image beyond the photo rules as a document, with a degraded entry", async () => {
    const { send } = harness();
    const receipt = await send({ media: [attach.png(9000, 100)] }, to);
    expect(receipt.messages[0]?.kind).toBe("document");
    expect(receipt.degraded).toEqual([expect.objectContaining({ part: 0, from: "image", to: "document" })]);
  });

  it("sends an image over the photo size limit as a document", async () => {
    const { send } = harness();
    const receipt = await send({ media: [attach.png(2, 2, 20_000)] }, to);
    expect(receipt.messages[0]?.kind).toBe("document");
    expect(receipt.degraded[0]).toMatchObject({ from: "image", to: "document" });
  });

  it("reports media that cannot be loaded at its place, and delivers the rest", async () => {
    const { send } = harness();
    const receipt = await send({ text: "hi", mediaUrls: ["/etc/passwd"], media: [attach.pdf()] }, to);
    expect(receipt.ok).toBe(false);
    expect(receipt.failures).toEqual([
      {
        part: 0,
        error: expect.objectContaining({ code: "media_blocked" }),
        content: "media /etc/passwd",
        ambiguous: false,
        retryable: false,
        action: expect.stringMatching(/allow its root \(media\.localRoots\)/),
      },
    ]);
    expect(receipt.messages).toEqual([{ id: "m1", kind: "document", part: 1 }]);
  });

  it("fails a kind the platform cannot carry at all, without dropping it silently", async () => {
    const { send, transport } = harness({
      media: { kinds: ["image"], maxBytes: { default: 50_000 } },
      album: null,
    });
    const receipt = await send({ media: [attach.pdf(), attach.png()] }, to);
    expect(receipt.failures[0]).toMatchObject({ part: 0, error: expect.any(UnsupportedFeatureError) });
    expect(receipt.messages).toEqual([{ id: "m1", kind: "image", part: 1 }]);
    expect(transport.calls).toHaveLength(1);
  });
});

describe("createAdapter: voice", () => {
  it("sends audioAsVoice with a voice format as a native voice note", async () => {
    const { send } = harness();
    const receipt = await send({ text: "[[audio_as_voice]]", media: [attach.ogg()] }, to);
    expect(receipt.messages).toEqual([{ id: "m1", kind: "voice", part: 0 }]);
    expect(receipt.degraded).toEqual([]);
  });

  it("sends an incompatible format as audio and says why", async () => {
    const { send } = harness({ voice: { mode: "native", formats: ["audio/ogg"] } });
    const receipt = await send({ audioAsVoice: true, media: [attach.mp3()] }, to);
    expect(receipt.messages[0]?.kind).toBe("audio");
    expect(receipt.degraded).toEqual([expect.objectContaining({ part: 0, from: "voice", to: "audio" })]);
  });

  it("sends audio on a platform without voice notes as audio, and says why", async () => {
    const { send } = harness({ voice: { mode: "as-audio", formats: [] } });
    const receipt = await send({ audioAsVoice: true, media: [attach.ogg()] }, to);
    expect(receipt.messages[0]?.kind).toBe("audio");
    expect(receipt.degraded[0]?.reason).toMatch(/no voice notes/);
  });

  it("resends a refused voice note as an audio file", async () => {
    const { send, transport } = harness();
    transport.behave((op) => {
      if (op.type === "media" && op.kind === "voice")
        throw new UnsupportedFeatureError("voice", "voice messages forbidden");
      return undefined;
    });
    const receipt = await send({ audioAsVoice: true, media: [attach.ogg()] }, to);
    expect(receipt.ok).toBe(true);
    expect(receipt.messages).toEqual([{ id: "m1", kind: "audio", part: 0 }]);
    expect(receipt.degraded[0]).toMatchObject({ from: "voice", to: "audio" });
    expect(transport.calls.map((c) => (c.op as MediaOperation).kind)).toEqual(["voice", "audio"]);
  });
});

describe("createAdapter: replies and threads", () => {
  const replies = async (replyMode?: "first" | "all" | "off") => {
    const { send, transport } = harness();
    await send({ text: long, replyToId: "42", media: [attach.pdf()] }, to, replyMode ? { replyMode } : {});
    return transport.calls.map((c) => c.op.replyTo);
  };

  it("replies on the first operation by default", async () => {
    const seen = await replies();
    expect(seen.length, "operations sent (text chunks, then the document)").toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(seen.map((_, i) => (i === 0 ? "42" : undefined)));
  });

  it("replies on every operation with replyMode all, and on none with off", async () => {
    const all = await replies("all");
    expect(all.length, "operations sent with replyMode all").toBeGreaterThanOrEqual(3);
    expect(all).toEqual(all.map(() => "42"));
    const off = await replies("off");
    expect(off.length, "operations sent with replyMode off").toBeGreaterThanOrEqual(3);
    expect(off).toEqual(off.map(() => undefined));
  });

  it("moves the reply to the next part when the first part certainly failed", async () => {
    const { send, transport } = harness();
    transport.behave((_op, call) => {
      if (call === 1) throw new TargetNotFoundError("gone", "chat");
      return undefined;
    });
    const receipt = await send({ text: "x ".repeat(40), replyToId: "42", media: [attach.pdf()] }, to);
    expect(receipt.failures.map((f) => f.part)).toEqual([0]);
    expect(receipt.messages).toEqual([{ id: "m1", kind: "document", part: 1 }]);
    expect(transport.calls.map((c) => [c.op.type, c.op.replyTo])).toEqual([
      ["text", "42"],
      ["media", "42"],
    ]);
  });

  it("resolves [[reply_to_current]] from the target", async () => {
    const { send, transport } = harness();
    await send({ text: "[[reply_to_current]] hi" }, { to: "c", currentMessageId: "7" });
    expect(transport.calls[0]?.op.replyTo).toBe("7");
  });

  it("says in the receipt that [[reply_to_current]] had no current message, and in the plan", async () => {
    const { adapter, send, transport } = harness();
    const receipt = await send({ text: "[[reply_to_current]] hi" }, { to: "c" });
    expect(transport.calls[0]?.op.replyTo).toBeUndefined();
    const dropped = {
      part: 0,
      from: "reply",
      to: "none",
      reason: expect.stringContaining("set target.currentMessageId"),
    };
    expect(receipt.degraded).toEqual([dropped]);
    const planned = await adapter.plan?.({ text: "[[reply_to_current]] hi" }, { to: "c" });
    expect(planned?.degraded).toEqual([dropped]);
    // An explicit id wins over the tag, and replyMode "off" asks for no reply at all.
    expect((await send({ text: "[[reply_to_current]] hi", replyToId: "5" }, { to: "c" })).degraded).toEqual(
      [],
    );
    expect(
      (await send({ text: "[[reply_to_current]] hi" }, { to: "c" }, { replyMode: "off" })).degraded,
    ).toEqual([]);
  });

  it("resends without the reply when the replied-to message vanished", async () => {
    const { send, transport } = harness();
    transport.behave((op) => {
      if (op.replyTo !== undefined) throw new TargetNotFoundError("message to reply not found", "reply");
      return undefined;
    });
    const receipt = await send({ text: "hi", replyToId: "404" }, to);
    expect(receipt.ok).toBe(true);
    expect(receipt.degraded).toEqual([expect.objectContaining({ part: 0, from: "reply", to: "none" })]);
    expect(transport.calls).toHaveLength(2);
  });

  it("degrades a reply on a platform without replies, before any call", async () => {
    const { send, transport } = harness({ replies: false });
    const receipt = await send({ text: "hi", replyToId: "1" }, to);
    expect(transport.calls[0]?.op.replyTo).toBeUndefined();
    expect(receipt.degraded).toEqual([
      { part: 0, from: "reply", to: "none", reason: "the platform has no replies" },
    ]);
  });

  it("puts the thread on every operation", async () => {
    const { send, transport } = harness();
    await send(
      { text: long, media: [attach.png(), attach.png(), attach.ogg()], audioAsVoice: true },
      { to: "c", thread: "t1" },
    );
    expect(transport.calls.length).toBeGreaterThan(3);
    expect(transport.calls.map((c) => c.op.thread)).toEqual(transport.calls.map(() => "t1"));
  });

  it("refuses a thread on a platform without threads before any call", async () => {
    const { adapter, transport } = harness({ threads: false });
    await expect(adapter.send({ text: "x" }, { to: "c", thread: "t" })).rejects.toMatchObject({
      feature: "threads",
    });
    expect(transport.calls).toHaveLength(0);
  });
});

describe("createAdapter: one media in two forms (protocol.md, 'One media, whatever its form')", () => {
  it("the same inline bytes twice go once, the first kept in its place", async () => {
    const { send, transport } = harness();
    const receipt = await send({ text: "Twice", media: [attach.png(3), attach.pdf(), attach.png(3)] }, to);
    expect(receipt.ok).toBe(true);
    expect(transport.calls.map((call) => call.op.type)).toEqual(["media", "media"]);
    // Image then document: the repeated image after the document is gone (no album of two).
    expect(receipt.messages.map((m) => m.kind)).toEqual(["image", "document"]);
  });

  it("a media memory shared by two sends: what the first delivered, the second leaves out", async () => {
    const { send, transport } = harness();
    const mediaMemory = createMediaMemory();
    await send({ media: [attach.png(4)] }, to, { mediaMemory });
    const second = await send({ text: "Again", media: [attach.png(4), attach.pdf()] }, to, { mediaMemory });
    expect(second.ok).toBe(true);
    expect(second.messages.map((m) => m.kind)).toEqual(["document"]);
    expect(transport.calls.length).toBe(2);
  });

  it("two files of one size that differ only past the first 64 KiB are both sent; equal ones once", async () => {
    const { send, transport } = harness({
      media: { ...testCapabilities().media, maxBytes: { default: 500_000 } },
    });
    const bytes = (last: number) => {
      const data = new Uint8Array(200_000).fill(7);
      data[data.length - 1] = last;
      return { mimeType: "application/octet-stream", data, fileName: `f${last}.bin` };
    };
    const receipt = await send({ media: [bytes(1), bytes(2), bytes(1)] }, to);
    expect(receipt.failures).toEqual([]);
    const sent = transport.calls.map((call) => call.op as AlbumOperation);
    expect(sent.map((op) => op.items.map((item) => item.media.fileName))).toEqual([["f1.bin", "f2.bin"]]);
  });

  it("tells same-size media apart by their first 64 KiB without reading either whole", async () => {
    const memory = createMediaMemory();
    const reads: string[] = [];
    const known = (name: string) => ({
      names: [],
      size: 1_000_000,
      digest: async (head?: boolean) => {
        reads.push(`${name}${head ? " head" : " whole"}`);
        return `${name}${head ? "-head" : ""}`;
      },
    });
    memory.add(known("a"));
    expect(await memory.has(known("b"))).toBe(false);
    expect(reads).toEqual(["b head", "a head"]);
  });

  it("a media memory that is not one is a PayloadError before any call", async () => {
    const { send, transport } = harness();
    await expect(send({ text: "x" }, to, { mediaMemory: {} as never })).rejects.toBeInstanceOf(PayloadError);
    expect(transport.calls).toEqual([]);
  });
});
