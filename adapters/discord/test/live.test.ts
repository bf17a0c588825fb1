/**
 * Against the real Discord API; skipped unless OUTBOX_DISCORD_TOKEN and
 * OUTBOX_DISCORD_CHANNEL are set (a bot token and a channel id the bot may write to).
 */
import { fixturePath } from "@outbox/conformance";
import { describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../src/index.js";

const token = process.env.OUTBOX_DISCORD_TOKEN;
const channel = process.env.OUTBOX_DISCORD_CHANNEL;

describe.skipIf(!token || !channel)("Discord live", () => {
  it("delivers formatted text, an image with its text, and a voice message", async () => {
    const adapter = createDiscordAdapter({
      token: token as string,
      media: { localRoots: [fixturePath("png").replace(/[^/]+$/, "")] },
    });
    const receipt = await adapter.send(
      {
        text: "Outbox live test: **bold**, `code`, @everyone (pings nobody).",
        mediaUrls: [fixturePath("png")],
      },
      { to: channel as string },
    );
    expect(receipt.failures).toEqual([]);
    expect(receipt.messages.map((m) => m.kind)).toEqual(["image"]);
    const voice = await adapter.send(
      { mediaUrls: [fixturePath("ogg")], audioAsVoice: true },
      { to: channel as string },
    );
    expect(voice.failures).toEqual([]);
    await adapter.close?.();
  });
});
