import { conformanceMedia, fixtureSha256 } from "@outbox/conformance";
import { describe, expect, it } from "vitest";
import { createEmulatedChannel } from "../src/testing/index.js";

describe("createEmulatedChannel", () => {
  it("replies to the seeded inbound message, and the emulator downloads URL media trusting options.ca", async () => {
    const media = await conformanceMedia();
    const channel = await createEmulatedChannel({
      media: { ...media.policy, passThrough: true },
      ca: media.ca,
      ...(media.policy.lookup ? { lookup: media.policy.lookup } : {}),
    });
    try {
      expect(channel.platform).toBe("telegram");
      expect(channel.target.currentMessageId).toMatch(/^\d+$/);
      const receipt = await channel.adapter.send(
        { text: "**Done** [[reply_to_current]]", mediaUrls: [media.url("png", 101)] },
        channel.target,
      );
      expect(receipt.ok).toBe(true);
      const observed = channel.observe();
      expect(observed).toHaveLength(1);
      expect(observed[0]).toMatchObject({
        kind: "image",
        caption: "Done",
        replyTo: channel.target.currentMessageId,
        sha256: fixtureSha256("png"),
      });
      expect(receipt.degraded).toEqual([]);
      expect(receipt.messages[0]?.media).toEqual([{ source: 0, via: "url" }]);
      // Fetched twice: once by the adapter's media loader, once by the emulator (as Telegram would).
      expect(media.served().filter((path) => path === "/image.png?n=101")).toHaveLength(2);
    } finally {
      await channel.close();
    }
  });

  it("without options.ca the emulator cannot download from the fixture host; the adapter falls back to an upload", async () => {
    const media = await conformanceMedia();
    const channel = await createEmulatedChannel({
      media: { ...media.policy, passThrough: true },
      ...(media.policy.lookup ? { lookup: media.policy.lookup } : {}),
    });
    try {
      const receipt = await channel.adapter.send({ mediaUrls: [media.url("png", 102)] }, channel.target);
      expect(receipt.ok).toBe(true);
      expect(channel.observe()).toMatchObject([{ kind: "image", sha256: fixtureSha256("png") }]);
      expect(receipt.degraded).toMatchObject([{ from: "url", to: "upload" }]);
      // The receipt says how the item went in the end: uploaded.
      expect(receipt.messages[0]?.media).toBeUndefined();
    } finally {
      await channel.close();
    }
  });
});
