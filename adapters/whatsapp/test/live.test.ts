/**
 * Against the real Cloud API; skipped unless OUTBOX_WHATSAPP_TOKEN, OUTBOX_WHATSAPP_PHONE_NUMBER_ID
 * and OUTBOX_WHATSAPP_TO are set (a token with whatsapp_business_messaging, the business number's
 * Phone number ID, and a person who wrote to that number within 24 hours, on its allowed list
 * when it is a test number). See docs/adapters/whatsapp.md.
 */
import { fixturePath } from "@outbox/conformance";
import { describe, expect, it } from "vitest";
import { createWhatsAppAdapter } from "../src/index.js";

const token = process.env.OUTBOX_WHATSAPP_TOKEN;
const phoneNumberId = process.env.OUTBOX_WHATSAPP_PHONE_NUMBER_ID;
const to = process.env.OUTBOX_WHATSAPP_TO;

describe.skipIf(!token || !phoneNumberId || !to)("WhatsApp live", () => {
  it("delivers formatted text, then an image with a caption replying to it", async () => {
    const adapter = createWhatsAppAdapter({
      token: token!,
      phoneNumberId: phoneNumberId!,
      media: { localRoots: [fixturePath("png").replace(/[^/]+$/, "")] },
    });
    try {
      const text = await adapter.send(
        {
          text: "Outbox live test: **bold**, _italic_, `code`, a literal \\*star\\* and [docs](https://example.com).",
        },
        { to: to! },
      );
      expect(text.failures).toEqual([]);
      const first = text.messages[0]?.id as string;
      expect(first).toMatch(/^wamid\./);
      const image = await adapter.send(
        { text: "A *caption*.", mediaUrls: [fixturePath("png")], replyToId: first },
        { to: to! },
      );
      expect(image.failures).toEqual([]);
      expect(image.messages.map((m) => m.kind)).toEqual(["image"]);
    } finally {
      await adapter.close?.();
    }
  });
});
