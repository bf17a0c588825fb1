import { type LoadedMedia, PlatformError } from "@outbox/core";
import { createSlackClient, createSlackTransport } from "@outbox/slack";
import { startSlackEmulator } from "@outbox/slack/testing";
import { afterEach, describe, expect, it } from "vitest";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

async function setup() {
  const emulator = await startSlackEmulator({ channels: [{ id: "C1" }], rateLimits: false });
  open.push(emulator);
  const client = createSlackClient({ token: emulator.token, slackApiUrl: emulator.slackApiUrl });
  return { emulator, transport: createSlackTransport(client, { unfurl: false }) };
}

describe("Slack transport", () => {
  it("streams an upload: the request is under way before the source has produced its last byte", async () => {
    const { emulator, transport } = await setup();
    const chunk = new Uint8Array(256 * 1024).fill(7);
    let sawRequestMidStream = false;
    const media: LoadedMedia = {
      kind: "document",
      mimeType: "application/octet-stream",
      fileName: "big.bin",
      size: chunk.length * 2,
      source: { type: "inline" },
      async *open() {
        yield chunk;
        // A transport that buffered the whole body would never send before this loop ends.
        for (let i = 0; i < 10_000 && !sawRequestMidStream; i++) {
          sawRequestMidStream = emulator.requests.some((r) => r.method === "upload");
          await new Promise((resolve) => setImmediate(resolve));
        }
        yield chunk;
      },
    };
    const sent = await transport.sendMedia({ type: "media", target: { to: "C1" }, kind: "document", media });
    expect(sawRequestMidStream).toBe(true);
    expect(emulator.observe("C1")[0]).toMatchObject({ kind: "document", bytes: chunk.length * 2 });
    expect(sent.id).toBe(emulator.history("C1")[0]?.ts);
  });

  it("text Slack would truncate is refused (msg_too_long → PlatformError), never cut", async () => {
    const { emulator, transport } = await setup();
    const text = "x".repeat(40_001);
    const error = await transport
      .sendText({ type: "text", target: { to: "C1" }, text: { text, plain: text } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).description).toMatch(/^msg_too_long/);
    expect(emulator.observe()).toEqual([]);
  });
});
