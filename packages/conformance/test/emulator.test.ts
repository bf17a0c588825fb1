import { describe, expect, it } from "vitest";
import { fixtureBytes } from "../src/fixtures.js";
import { referenceCapabilities } from "../src/reference/capabilities.js";
import {
  type EmulatorCall,
  EmulatorRefusedError,
  EmulatorResetError,
  EmulatorTimeoutError,
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
      { kind: "text", text: "hi & bye", formatting: [{ kind: "bold", offset: 0, length: 2 }] },
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
    expect(emulator.rateLimitRefusals(), "injected 429s are not refusals under its limits").toBe(0);
  });

  it("enforces its declared rate limit as a token bucket, with a 429, a retry_after and a count", async () => {
    const emulator = new ReferenceEmulator({
      ...referenceCapabilities,
      rateLimits: [{ scope: "target", limit: 2, intervalMs: 60_000, burst: 3 }],
    });
    const call = { method: "sendText", chat, text: "x" } as const;
    for (let i = 0; i < 3; i++) expect(await emulator.call(call)).toMatchObject({ ok: true });
    const fourth = await emulator.call(call);
    expect(fourth).toMatchObject({ ok: false, status: 429 });
    // One token refills in intervalMs / limit = 30 s.
    if (!fourth.ok) expect(fourth.retryAfterMs).toBeGreaterThan(29_000);
    if (!fourth.ok) expect(fourth.retryAfterMs).toBeLessThanOrEqual(30_000);
    expect(emulator.rateLimitRefusals()).toBe(1);
  });
});

describe("ReferenceEmulator faults before writing and after processing", () => {
  const text = (t: string): EmulatorCall => ({ method: "sendText", chat, text: t });

  it("reset-after-processed and timeout-after-processed record the message, then fail the call", async () => {
    const emulator = new ReferenceEmulator({ ...referenceCapabilities, rateLimits: [] });
    emulator.inject({ kind: "reset-after-processed", method: "sendText", skip: 1 });
    emulator.inject({ kind: "timeout-after-processed", method: "sendMedia" });
    await emulator.call(text("one"));
    await expect(emulator.call(text("two"))).rejects.toBeInstanceOf(EmulatorResetError);
    await expect(
      emulator.call({ method: "sendMedia", chat, kind: "image", file: png }),
    ).rejects.toBeInstanceOf(EmulatorTimeoutError);
    expect(emulator.observe().map((m) => m.text ?? m.kind)).toEqual(["one", "two", "image"]);
    expect(emulator.reached()).toHaveLength(3);
  });

  it("reset-before-write refuses the call after the answer that arms it: nothing reaches the platform", async () => {
    const emulator = new ReferenceEmulator({ ...referenceCapabilities, rateLimits: [] });
    emulator.inject({ kind: "reset-before-write", method: "sendText" });
    await emulator.call(text("one"));
    const refused = await emulator.call(text("two")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmulatorRefusedError);
    expect(refused).toMatchObject({ code: "ECONNREFUSED" });
    expect(emulator.reached().map((call) => (call as { text: string }).text)).toEqual(["one"]);
    await emulator.call(text("two"));
    expect(emulator.observe().map((m) => m.text)).toEqual(["one", "two"]);
    expect(emulator.calls()).toBe(2);
  });
});
