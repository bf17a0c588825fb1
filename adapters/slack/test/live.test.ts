/**
 * Against the real Slack Web API; skipped unless OUTBOX_SLACK_TOKEN and OUTBOX_SLACK_CHANNEL
 * are set (a bot token with chat:write and files:write, and a channel id the app is in).
 */
import { fixturePath } from "@outbox/conformance";
import { describe, expect, it } from "vitest";
import { createSlackAdapter } from "../src/index.js";

const token = process.env.OUTBOX_SLACK_TOKEN;
const channel = process.env.OUTBOX_SLACK_CHANNEL;

describe.skipIf(!token || !channel)("Slack live", () => {
  it("delivers formatted text, then an image with a caption in its thread", async () => {
    const adapter = createSlackAdapter({
      token: token!,
      media: { localRoots: [fixturePath("png").replace(/[^/]+$/, "")] },
    });
    const text = await adapter.send(
      { text: "Outbox live test: **bold**, `code`, <escaped> & <!channel> (no ping)." },
      { to: channel! },
    );
    expect(text.failures).toEqual([]);
    const root = text.messages[0]?.id as string;
    const image = await adapter.send(
      { text: "A caption.", mediaUrls: [fixturePath("png")], replyToId: root },
      { to: channel! },
    );
    expect(image.failures).toEqual([]);
    expect(image.messages.map((m) => m.kind)).toEqual(["image"]);
    expect(image.messages[0]?.id).toMatch(/^\d+\.\d+$/);
  });
});
