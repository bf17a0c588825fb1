/**
 * Against the real Chat API; skipped unless OUTBOX_GOOGLECHAT_CREDENTIALS (the Chat app's
 * service account JSON key, its content) and OUTBOX_GOOGLECHAT_SPACE (a space the app was
 * added to, `spaces/…`) are set. See docs/adapters/googlechat.md.
 */
import { describe, expect, it } from "vitest";
import { createGoogleChatAdapter } from "../src/index.js";

const env = process.env;
const space = env.OUTBOX_GOOGLECHAT_SPACE;
const ready = env.OUTBOX_GOOGLECHAT_CREDENTIALS && space;

describe.skipIf(!ready)("Google Chat live", () => {
  it("delivers formatted text once under an idempotency key, and edits a preview", async () => {
    const adapter = createGoogleChatAdapter({ credentials: env.OUTBOX_GOOGLECHAT_CREDENTIALS ?? "" });
    try {
      const preview = adapter.preview?.({ to: space ?? "" });
      preview?.update("Outbox live test: drafting…");
      const text = await preview?.settle({
        text: "Outbox live test: **bold**, _italic_, `code`, a literal <users/all> and [docs](https://example.com).",
      });
      expect(text?.failures).toEqual([]);
      const key = `live-${Date.now()}`;
      const once = await adapter.send(
        { text: "Outbox live test: once" },
        { to: space ?? "" },
        { idempotencyKey: key },
      );
      expect(once.failures).toEqual([]);
    } finally {
      await adapter.close?.();
    }
  });
});
