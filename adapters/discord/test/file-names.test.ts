import { afterEach, describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../src/index.js";
import { DEFAULT_CHANNEL, type DiscordEmulator, startDiscordEmulator } from "../src/testing/index.js";

let emulator: DiscordEmulator | undefined;
afterEach(() => emulator?.close());

describe("Discord: file names on the wire", () => {
  it("a name that tries to add multipart parameters arrives as one clean name (strict parser)", async () => {
    emulator = await startDiscordEmulator({ messageBucket: false, channels: [{ id: DEFAULT_CHANNEL }] });
    const adapter = createDiscordAdapter({ token: emulator.token, api: `${emulator.api}/` });
    const receipt = await adapter.send(
      {
        text: "",
        media: [
          {
            mimeType: "text/plain",
            data: Buffer.from("notes"),
            fileName: '../notes\u202Etxt.exe"; name="payload_json; x',
          },
        ],
      },
      { to: DEFAULT_CHANNEL },
    );
    expect(receipt.failures).toEqual([]);
    expect(emulator.observe().map((m) => m.fileName)).toEqual(["notestxt.exe__ name=_payload_json_ x"]);
  });
});
