/**
 * Against a real homeserver; skipped unless OUTBOX_MATRIX_HOMESERVER, OUTBOX_MATRIX_TOKEN and
 * OUTBOX_MATRIX_ROOM are set (the homeserver URL, the bot user's access token and a room id
 * the bot has joined; see docs/adapters/matrix.md).
 */
import { fixturePath } from "@outbox/conformance";
import { describe, expect, it } from "vitest";
import { createMatrixAdapter } from "../src/index.js";

const homeserver = process.env.OUTBOX_MATRIX_HOMESERVER;
const token = process.env.OUTBOX_MATRIX_TOKEN;
const room = process.env.OUTBOX_MATRIX_ROOM;

describe.skipIf(!homeserver || !token || !room)("Matrix live", () => {
  it("delivers formatted text, an image with its caption, a voice note and a threaded reply", async () => {
    const adapter = createMatrixAdapter({
      homeserver: homeserver as string,
      accessToken: token as string,
      media: { localRoots: [fixturePath("png").replace(/[^/]+$/, "")] },
    });
    const target = { to: room as string };
    const receipt = await adapter.send(
      { text: "Outbox live test: **bold**, `code`, ||spoiler||.", mediaUrls: [fixturePath("png")] },
      target,
    );
    expect(receipt.failures).toEqual([]);
    expect(receipt.messages.map((m) => m.kind)).toEqual(["image"]);
    const voice = await adapter.send({ mediaUrls: [fixturePath("ogg")], audioAsVoice: true }, target);
    expect(voice.failures).toEqual([]);
    const thread = await adapter.send(
      { text: "in the thread" },
      { ...target, thread: receipt.messages[0]?.id },
    );
    expect(thread.failures).toEqual([]);
    await adapter.close?.();
  });
});
