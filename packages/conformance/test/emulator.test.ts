import { describe, expect, it } from "vitest";
import { fixtureBytes } from "../src/fixtures.js";
import { referenceCapabilities } from "../src/reference/capabilities.js";
import {
  type EmulatorCall,
  EmulatorResetError,
  REFERENCE_CHAT,
  ReferenceEmulator,
} from "../src/reference/emulator.js";

const chat = REFERENCE_CHAT;
const png = { name: "image.png", mimeType: "image/png", bytes: fixtureBytes("png") };

describe("ReferenceEmulator", () => {
  it("records accepted messages with visible text, ids, replies and threads", async () => {
    const emulator = new ReferenceEmulator(referenceCapabilities);
    const first = await emulator.call({ method: "sendText", chat, text: "<b>hi</b> &amp; bye" });
    expect(first).toEqual({ ok: true, ids: ["1000"] });
    await emulator.call({
      method: "sendMedia",
      chat,
      kind: "image",
      file: png,
      caption: "c",
      replyTo: "1000",
      thread: "1000",
    });
    expect(emulator.observe()).toEqual([
      { kind: "text", text: "hi & bye" },
      expect.objectContaining({
        kind: "image",
        caption: "c",
        replyTo: "1000",
        thread: "1000",
        bytes: png.bytes.length,
      }),
    ]);
  });

  const refusals: Array<[EmulatorCall, string | RegExp]> = [
    [{ method: "sendText", chat, text: "x".repeat(1001) }, "message is too long"],
    [{ method: "sendText", chat, text: "a < b" }, /can't parse/],
    [{ method: "sendText", chat: "elsewhere", text: "x" }, "chat not found"],
    [{ method: "sendText", chat, text: "x", replyTo: "1" }, "message to be replied not found"],
    [{ method: "sendText", chat, text: "x", thread: "1" }, "message thread not found"],
    [
      { method: "sendMedia", chat, kind: "image", file: png, caption: "c".repeat(201) },
      "message caption is too long",
    ],
    [{ method: "sendMedia", chat, kind: "voice", file: png }, "VOICE_FORMAT_UNSUPPORTED"],
    [{ method: "sendAlbum", chat, items: [{ kind: "image", file: png }] }, "wrong number of album items"],
    [
      {
        method: "sendAlbum",
        chat,
        items: [
          { kind: "image", file: png },
          { kind: "document", file: png },
        ],
      },
      "these media can't be grouped",
    ],
  ];
  it.each(refusals)("refuses %j", async (call, description) => {
    const emulator = new ReferenceEmulator(referenceCapabilities);
    const response = await emulator.call(call);
    expect(response.ok).toBe(false);
    if (!response.ok) expect(response.description).toMatch(description);
    expect(emulator.observe()).toEqual([]);
  });

  it("applies faults in order, `times` calls each, then behaves", async () => {
    const emulator = new ReferenceEmulator(referenceCapabilities);
    emulator.inject({ kind: "rate-limit", retryAfterMs: 70, times: 2 });
    emulator.inject({ kind: "reset" });
    emulator.inject({ kind: "reject", description: "nope" });
    const call = { method: "sendText", chat, text: "x" } as const;
    expect(await emulator.call(call)).toMatchObject({ ok: false, status: 429, retryAfterMs: 70 });
    expect(await emulator.call(call)).toMatchObject({ ok: false, status: 429 });
    await expect(emulator.call(call)).rejects.toBeInstanceOf(EmulatorResetError);
    expect(await emulator.call(call)).toMatchObject({ ok: false, status: 400, description: "nope" });
    expect(await emulator.call(call)).toMatchObject({ ok: true });
    expect(emulator.calls()).toBe(5);
    expect(emulator.observe()).toHaveLength(1);
  });

  it("enforces its declared rate limit with a 429 and a retry_after", async () => {
    const emulator = new ReferenceEmulator({
      ...referenceCapabilities,
      rateLimits: [{ scope: "target", limit: 2, intervalMs: 60_000 }],
    });
    const call = { method: "sendText", chat, text: "x" } as const;
    await emulator.call(call);
    await emulator.call(call);
    const third = await emulator.call(call);
    expect(third).toMatchObject({ ok: false, status: 429 });
    if (!third.ok) expect(third.retryAfterMs).toBeGreaterThan(59_000);
  });
});
