import type { LoadedMedia } from "@outbox/core";
import { Api } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { telegramCapabilities } from "../src/capabilities.js";
import { createTelegramAdapter } from "../src/index.js";
import { startTelegramEmulator, type TelegramEmulator } from "../src/testing/index.js";
import { createTelegramTransport } from "../src/transport/transport.js";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5f1e0fc0000000049454e44ae426082",
  "hex",
);

let emulator: TelegramEmulator;
beforeEach(async () => {
  emulator = await startTelegramEmulator({ chats: [{ id: 42 }], rateLimits: false });
});
afterEach(() => emulator.close());

const media = (fileName: string): LoadedMedia => ({
  kind: "document",
  mimeType: "image/png",
  fileName,
  size: PNG.length,
  source: { type: "inline" },
  async *open() {
    yield PNG;
  },
});

describe("Telegram: file names on the wire", () => {
  it("a name cannot add a multipart parameter (the emulator's strict parser takes the last one)", async () => {
    const api = new Api(emulator.token, { apiRoot: emulator.apiRoot, timeoutSeconds: 5 });
    const transport = createTelegramTransport(api, {
      capabilities: telegramCapabilities,
      linkPreview: false,
    });
    for (const name of ["chart.png; name=chat_id", 'chart.png"; name="chat_id', "my chart.png"]) {
      await transport.sendMedia({
        type: "media",
        target: { to: "42" },
        kind: "document",
        media: media(name),
      });
    }
    expect(emulator.observe().map((m) => m.fileName)).toEqual([
      "chart.png_ name=chat_id",
      "chart.png__ name=_chat_id",
      "my chart.png",
    ]);
  });

  it("a payload's fileName reaches Telegram cleaned by core's rule", async () => {
    const adapter = createTelegramAdapter({ token: emulator.token, apiRoot: `${emulator.apiRoot}/` });
    const receipt = await adapter.send(
      {
        text: "",
        media: [
          { mimeType: "application/octet-stream", data: PNG, fileName: "../../invoice\u202Egnp.exe" },
          { mimeType: "text/plain", data: Buffer.from("notes"), fileName: "notes.txt; name=chat_id" },
        ],
      },
      { to: "42" },
    );
    expect(receipt.failures).toEqual([]);
    expect(
      emulator
        .observe()
        .flatMap((m) => (m.kind === "album" ? (m.items ?? []) : [m]))
        .map((m) => m.fileName),
    ).toEqual(["invoicegnp.exe", "notes.txt_ name=chat_id"]);
  });
});
