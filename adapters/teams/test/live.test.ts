/**
 * Against the real connector; skipped unless OUTBOX_TEAMS_CLIENT_ID, OUTBOX_TEAMS_CLIENT_SECRET,
 * OUTBOX_TEAMS_TENANT_ID, OUTBOX_TEAMS_SERVICE_URL and OUTBOX_TEAMS_CONVERSATION are set (the
 * bot's app registration, the serviceUrl and conversation.id of an activity it received in a
 * conversation where it is installed). See docs/adapters/teams.md.
 */
import { fixturePath } from "@outbox/conformance";
import { describe, expect, it } from "vitest";
import { createTeamsAdapter } from "../src/index.js";

const env = process.env;
const conversation = env.OUTBOX_TEAMS_CONVERSATION;
const ready =
  env.OUTBOX_TEAMS_CLIENT_ID &&
  env.OUTBOX_TEAMS_CLIENT_SECRET &&
  env.OUTBOX_TEAMS_TENANT_ID &&
  env.OUTBOX_TEAMS_SERVICE_URL &&
  conversation;

describe.skipIf(!ready)("Teams live", () => {
  it("delivers formatted text, edits it, and sends a small image inline", async () => {
    const adapter = createTeamsAdapter({
      clientId: env.OUTBOX_TEAMS_CLIENT_ID ?? "",
      clientSecret: env.OUTBOX_TEAMS_CLIENT_SECRET ?? "",
      tenantId: env.OUTBOX_TEAMS_TENANT_ID ?? "",
      serviceUrl: env.OUTBOX_TEAMS_SERVICE_URL ?? "",
      media: { localRoots: [fixturePath("png").replace(/[^/]+$/, "")] },
    });
    try {
      const preview = adapter.preview?.({ to: conversation ?? "" });
      preview?.update("Outbox live test: drafting…");
      const text = await preview?.settle({
        text: "Outbox live test: **bold**, _italic_, `code`, a literal <at>nobody</at> and [docs](https://example.com).",
      });
      expect(text?.failures).toEqual([]);
      const image = await adapter.send({ mediaUrls: [fixturePath("png")] }, { to: conversation ?? "" });
      expect(image.failures).toEqual([]);
      expect(image.messages.map((m) => m.kind)).toEqual(["image"]);
    } finally {
      await adapter.close?.();
    }
  });
});
