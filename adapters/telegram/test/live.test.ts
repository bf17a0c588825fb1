/**
 * Against the real Telegram Bot API; skipped unless OUTBOX_TELEGRAM_TOKEN and
 * OUTBOX_TELEGRAM_CHAT are set (a bot token and a chat the bot may write to).
 */
import { fixturePath } from "@outbox/conformance";
import { describe, expect, it } from "vitest";
import { createTelegramAdapter } from "../src/index.js";

const token = process.env.OUTBOX_TELEGRAM_TOKEN;
const chat = process.env.OUTBOX_TELEGRAM_CHAT;

describe.skipIf(!token || !chat)("Telegram live", () => {
  it("delivers formatted text and a photo with a caption", async () => {
    const adapter = createTelegramAdapter({
      token: token!,
      media: { localRoots: [fixturePath("png").replace(/[^/]+$/, "")] },
    });
    const receipt = await adapter.send(
      { text: "Outbox live test: **bold**, `code`, <escaped> & done.", mediaUrls: [fixturePath("png")] },
      { to: chat! },
    );
    expect(receipt.failures).toEqual([]);
    expect(receipt.messages.map((m) => m.kind)).toEqual(["image"]);
  });
});
