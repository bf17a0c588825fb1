import { afterEach, describe, expect, it } from "vitest";
import { createWhatsAppAdapter } from "../src/index.js";
import { startWhatsAppEmulator, type WhatsAppEmulator } from "../src/testing/index.js";

const TO = "15550001111";
let emulator: WhatsAppEmulator | undefined;
afterEach(() => emulator?.close());

describe("WhatsApp: file names on the wire", () => {
  it("a name that tries to add multipart parameters arrives as one clean name (strict parser)", async () => {
    emulator = await startWhatsAppEmulator();
    emulator.seedMessage(TO, "hello");
    const adapter = createWhatsAppAdapter({
      token: emulator.token,
      phoneNumberId: emulator.phoneNumberId,
      graphApiUrl: emulator.graphApiUrl,
      retry: { maxRetries: 0 },
    });
    const receipt = await adapter.send(
      {
        text: "",
        media: [
          {
            mimeType: "text/plain",
            data: Buffer.from("notes"),
            fileName: '..\\notes\u202Etxt.exe"; name="messaging_product; x',
          },
        ],
      },
      { to: TO },
    );
    await adapter.close?.();
    expect(receipt.failures).toEqual([]);
    expect(emulator.observe(TO).map((m) => m.fileName)).toEqual([
      "notestxt.exe__ name=_messaging_product_ x",
    ]);
  });
});
