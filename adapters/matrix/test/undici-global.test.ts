/**
 * The adapter loads undici without its global dispatcher: importing undici's main entry
 * installs an undici 7 Agent into the slot every undici copy shares (Node's own `fetch`
 * included), which breaks libraries bundling another undici (@discordjs/rest) in the same
 * process. Loading the adapter and sending through it must leave that slot as it was.
 */
import { describe, expect, it } from "vitest";

const GLOBAL_SLOT = Symbol.for("undici.globalDispatcher.1");
const globalSlot = () => (globalThis as Record<symbol, unknown>)[GLOBAL_SLOT];

describe("undici's global dispatcher", () => {
  it("is not installed by loading the adapter or sending through it", async () => {
    expect(globalSlot()).toBeUndefined();
    const { createMatrixAdapter } = await import("@outbox/matrix");
    const { DEFAULT_ROOM, startMatrixEmulator } = await import("@outbox/matrix/testing");
    const emulator = await startMatrixEmulator({ rateLimit: false });
    const matrix = createMatrixAdapter({
      homeserver: emulator.homeserver,
      accessToken: emulator.accessToken,
    });
    const receipt = await matrix.send(
      { text: "**hi**", media: [{ mimeType: "text/plain", data: Buffer.from("hello"), fileName: "a.txt" }] },
      { to: DEFAULT_ROOM },
    );
    await matrix.close?.();
    await emulator.close();
    expect(receipt.failures).toEqual([]);
    expect(emulator.requests.map((r) => r.route.split(" ")[0])).toContain("POST");
    expect(globalSlot()).toBeUndefined();
  });
});
