import { afterEach, describe, expect, it } from "vitest";
import { createMatrixAdapter } from "../src/index.js";
import { DEFAULT_ROOM, type MatrixEmulator, startMatrixEmulator } from "../src/testing/index.js";

let emulator: MatrixEmulator | undefined;
afterEach(() => emulator?.close());

describe("Matrix: file names", () => {
  it("the event's filename carries the cleaned name", async () => {
    emulator = await startMatrixEmulator({ rooms: [{ id: DEFAULT_ROOM }] });
    const adapter = createMatrixAdapter({
      homeserver: emulator.homeserver,
      accessToken: emulator.accessToken,
    });
    const receipt = await adapter.send(
      {
        text: "",
        media: [
          { mimeType: "text/plain", data: Buffer.from("notes"), fileName: "../notes\u202Etxt.exe&x=1" },
        ],
      },
      { to: DEFAULT_ROOM },
    );
    await adapter.close?.();
    expect(receipt.failures).toEqual([]);
    expect(emulator.observe(DEFAULT_ROOM).map((m) => m.fileName)).toEqual(["notestxt.exe&x=1"]);
  });
});
