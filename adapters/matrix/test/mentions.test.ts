/**
 * Mentions from the reply ping nobody on Matrix: every event (text, media with a caption or
 * a file name, a preview's edits) carries an empty `m.mentions`, which turns the legacy push
 * rules off; the emulator judges an event without it by those rules (`@room`, user IDs).
 */
import { fixturePath } from "@outbox/conformance";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMatrixAdapter, type MatrixAdapterConfig } from "../src/index.js";
import { DEFAULT_ROOM, type MatrixEmulator, startMatrixEmulator } from "../src/testing/index.js";

const PINGS = "@room look, and you too @alice:outbox.test";

let emulator: MatrixEmulator;
beforeEach(async () => {
  emulator = await startMatrixEmulator({ rateLimit: false });
});
afterEach(() => emulator.close());

const adapter = (config: Partial<MatrixAdapterConfig> = {}) =>
  createMatrixAdapter({
    homeserver: emulator.homeserver,
    accessToken: emulator.accessToken,
    media: { localRoots: [fixturePath("png").replace(/[^/]+$/, "")] },
    rateLimit: { perSecond: 100, burst: 10 },
    ...config,
  });

describe("Matrix mentions", () => {
  it("a reply's @room and user IDs notify nobody: text, caption, file name", async () => {
    const matrix = adapter();
    await matrix.send({ text: PINGS }, { to: DEFAULT_ROOM });
    await matrix.send({ text: PINGS, mediaUrls: [fixturePath("png")] }, { to: DEFAULT_ROOM });
    await matrix.send(
      { media: [{ filePath: fixturePath("png"), fileName: "@room.png", mimeType: "image/png" }] },
      { to: DEFAULT_ROOM },
    );
    const shown = emulator.observe(DEFAULT_ROOM);
    expect(shown.map((m) => m.text ?? m.caption ?? m.fileName)).toEqual([PINGS, PINGS, "@room.png"]);
    expect(shown.map((m) => m.mentions)).toEqual([undefined, undefined, undefined]);
    for (const event of emulator.events()) expect(event.content["m.mentions"]).toEqual({});
  });

  it("a preview's edits notify nobody either (outer content and m.new_content)", async () => {
    const preview = adapter().preview?.({ to: DEFAULT_ROOM }, { intervalMs: 10 });
    preview?.update("Writing to @room");
    const receipt = await preview?.settle({ text: `Done, ${PINGS}` });
    expect(receipt?.ok).toBe(true);
    const [shown] = emulator.observe(DEFAULT_ROOM);
    expect(shown?.text).toBe(`Done, ${PINGS}`);
    expect(shown?.mentions).toBeUndefined();
    const edit = emulator.events()[1]?.content as Record<string, Record<string, unknown>>;
    expect(edit["m.mentions"]).toEqual({});
    expect(edit["m.new_content"]?.["m.mentions"]).toEqual({});
  });

  it("with mentions: true the legacy push rules read the text, and the emulator records who was pinged", async () => {
    await adapter({ mentions: true }).send({ text: PINGS }, { to: DEFAULT_ROOM });
    expect(emulator.observe(DEFAULT_ROOM)[0]?.mentions).toEqual({
      everyone: true,
      users: ["@alice:outbox.test"],
    });
    expect(emulator.events()[0]?.content).not.toHaveProperty("m.mentions");
  });
});
