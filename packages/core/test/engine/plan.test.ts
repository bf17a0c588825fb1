import { describe, expect, it } from "vitest";
import type { ChannelAdapter, DeliveryReceipt, PlannedDelivery } from "../../src/adapter/types.js";
import { PayloadError, UnsupportedFeatureError } from "../../src/errors/errors.js";
import { harness } from "./support/harness.js";
import { attach } from "./support/media-bytes.js";

const to = { to: "chat" };
const plan = (adapter: ChannelAdapter, ...args: Parameters<NonNullable<ChannelAdapter["plan"]>>) =>
  (adapter.plan as NonNullable<ChannelAdapter["plan"]>)(...args);

/** What a receipt shows of a plan: which parts went as what, and the degradations. */
const shape = (planned: PlannedDelivery) => ({
  parts: planned.parts.map((part) => (part.type === "media" ? part.kind : part.type)),
  degraded: planned.degraded,
});
const received = (receipt: DeliveryReceipt) => ({
  parts: receipt.messages.map((message) => message.kind),
  degraded: receipt.degraded,
});

describe("adapter.plan", () => {
  it("plans what send delivers: parts, degradations and calls, for text and media in hand", async () => {
    const payload = {
      text: `${"word ".repeat(30)}\n\n${"more ".repeat(10)}`,
      media: [attach.png(), attach.png(3), attach.png(9000, 100), attach.pdf(), attach.mp3()],
      audioAsVoice: true,
      replyToId: "41",
    };
    const h = harness();
    const planned = await plan(h.adapter, payload, to);
    // The wide image becomes a document (known from its bytes) and joins the PDF's album.
    expect(shape(planned)).toEqual({
      parts: ["text", "text", "album", "album", "voice"],
      degraded: [{ part: 3, from: "image", to: "document", reason: "aspect ratio 90.0 exceeds 20" }],
    });
    expect(planned.replyTo).toBe("41");
    expect(h.transport.calls).toHaveLength(0);
    const receipt = await h.send(payload, to);
    expect(receipt.ok).toBe(true);
    expect(h.transport.calls).toHaveLength(planned.calls);
    expect(received(receipt)).toEqual(shape(planned));
  });

  it("notes a reply the platform cannot make on the first deliverable part, as send does", async () => {
    const payload = { text: "hi\n\nMEDIA: ftp://example.com/x.png", replyToId: "41" };
    const h = harness({ replies: false });
    const planned = await plan(h.adapter, payload, to);
    expect(planned.parts.map((part) => part.type)).toEqual(["text", "failed"]);
    expect(planned.calls).toBe(1);
    expect(planned.replyTo).toBeUndefined();
    const receipt = await h.send(payload, to);
    expect(receipt.degraded).toEqual(planned.degraded);
    expect(planned.degraded).toEqual([
      { part: 0, from: "reply", to: "none", reason: "the platform has no replies" },
    ]);
  });

  it("describes URLs and files from their names without fetching or reading them", async () => {
    const h = harness();
    const planned = await plan(
      h.adapter,
      {
        text: "See",
        mediaUrls: ["https://media.invalid/a/cat%20pic.GIF", "/no/such/dir/report.pdf", "./voice.ogg"],
        audioAsVoice: true,
      },
      to,
    );
    const media = planned.parts.flatMap((part) => (part.type === "media" ? [[part.kind, part.media]] : []));
    expect(media).toEqual([
      [
        "animation",
        {
          kind: "animation",
          mimeType: "image/gif",
          fileName: "cat pic.GIF",
          source: "https://media.invalid/a/cat%20pic.GIF",
          size: undefined,
        },
      ],
      ["document", expect.objectContaining({ mimeType: "application/pdf", size: undefined })],
      ["voice", expect.objectContaining({ mimeType: "audio/ogg", source: "./voice.ogg" })],
    ]);
    expect(planned.parts[0]).toMatchObject({ type: "media", caption: { text: "See" } });
    expect(planned.calls).toBe(3);
  });

  it("a hostile URL is refused or described, never fetched and never a crash", async () => {
    const planned = await plan(
      harness().adapter,
      { mediaUrls: ["https://[::1", "https://x.invalid/%E0%A4%A.png", "http://127.0.0.1/a.png"] },
      to,
    );
    expect(planned.parts.map((part) => (part.type === "failed" ? part.error.code : part.type))).toEqual([
      "media_blocked",
      "media",
      "media_blocked",
    ]);
    expect(planned.parts[1]).toMatchObject({ media: { fileName: "%E0%A4%A.png", mimeType: "image/png" } });
  });

  it("the same URL twice is planned once, as send delivers it once", async () => {
    const planned = await plan(
      harness().adapter,
      { mediaUrls: ["https://x.invalid/a.png", "https://x.invalid/a.png"] },
      to,
    );
    expect(planned.calls).toBe(1);
  });

  it("refuses what send refuses, before anything", async () => {
    const h = harness({ threads: false });
    await expect(plan(h.adapter, { text: 5 } as never, to)).rejects.toBeInstanceOf(PayloadError);
    await expect(plan(h.adapter, { text: "x" }, { to: "c", thread: "t" })).rejects.toBeInstanceOf(
      UnsupportedFeatureError,
    );
    expect(h.transport.calls).toHaveLength(0);
  });
});
