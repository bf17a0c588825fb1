/**
 * The adapter over the emulator: markup and mentions that cannot be forged, targets checked
 * before any call, threads by name and key, the client-assigned id answering a resend with
 * ALREADY_EXISTS, media as cards through `media.host` (and a failure naming it without one),
 * voice degraded, edits and deletes, the quota's 429 waited out.
 */
import { fixturePath, fixtureSha256 } from "@outbox/conformance";
import { createManualClock, TargetNotFoundError, UnsupportedFeatureError } from "@outbox/core";
import { afterEach, describe, expect, it } from "vitest";
import { clientMessageId, createGoogleChatAdapter, type GoogleChatAdapterConfig } from "../src/index.js";
import {
  emulatorConfig,
  type GoogleChatEmulator,
  type GoogleChatEmulatorOptions,
  startGoogleChatEmulator,
} from "../src/testing/index.js";

const SPACE = "spaces/ADAPTERtest";
const root = fixturePath("png").replace(/[^/]+$/, "");
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const e of open.splice(0).reverse()) await e.close();
});

async function setup(
  config: Partial<GoogleChatAdapterConfig> = {},
  options: GoogleChatEmulatorOptions = {},
): Promise<{ e: GoogleChatEmulator; adapter: ReturnType<typeof createGoogleChatAdapter> }> {
  const e = await startGoogleChatEmulator({ spaces: [{ name: SPACE }], ...options });
  open.push(e);
  const adapter = createGoogleChatAdapter({
    ...emulatorConfig(e),
    media: { localRoots: [root], host: e.mediaHost },
    retry: { maxRetries: 0 },
    ...config,
  });
  open.push({ close: async () => adapter.close?.() });
  return { e, adapter };
}

describe("Google Chat adapter: text", () => {
  it("renders Chat's markup, line structure kept", async () => {
    const { e, adapter } = await setup();
    const receipt = await adapter.send(
      { text: "**Bold**, _it_, ~~gone~~, `code` and [docs](https://example.com/a_b)\n\n- one\n- two" },
      { to: SPACE },
    );
    expect(receipt.ok).toBe(true);
    const sent = e.history(SPACE)[0]?.message.text;
    expect(sent).toBe("*Bold*, _it_, ~gone~, `code` and <https://example.com/a_b|docs>\n\n• one\n• two");
    const [shown] = e.observe(SPACE);
    expect(shown?.text).toBe("Bold, it, gone, code and docs\n\n• one\n• two");
    expect(shown?.formatting?.map((f) => f.kind)).toEqual(["bold", "italic", "strike", "code", "link"]);
  });

  it("writes <users/…> and <users/all> in the reply as text: nobody is mentioned, no link forged", async () => {
    const { e, adapter } = await setup();
    const attack = "Hi <users/123456789> and <users/all>, see <https://evil.example|your bank> *now*";
    const receipt = await adapter.send({ text: attack }, { to: SPACE });
    expect(receipt.ok).toBe(true);
    const [shown] = e.observe(SPACE);
    expect(shown?.mentions).toBeUndefined();
    // Chat links a bare address itself; no link shows other text than its address.
    for (const link of shown?.formatting?.filter((f) => f.kind === "link") ?? [])
      expect(shown?.text?.slice(link.offset, link.offset + link.length)).toBe(link.url);
    expect(shown?.text).toBe(
      "Hi <users/123456789> and <users/all>, see <https://evil.example|your bank> now",
    );
  });

  it("a target that is not a space's name fails before any call", async () => {
    const { e, adapter } = await setup();
    const receipt = await adapter.send({ text: "hi" }, { to: "#general" });
    expect(receipt.failures[0]?.error).toBeInstanceOf(TargetNotFoundError);
    expect(receipt.failures[0]?.error.message).toMatch(/not a space's name/);
    expect(e.requests).toEqual([]);
  });

  it("hostile text of 1 MB stays within the limits: every chunk accepted, growth measured", async () => {
    const { e, adapter } = await setup({ rateLimits: [] }, { rateLimits: false });
    const hostile = "<users/all>*_~`".repeat(2000);
    const receipt = await adapter.send({ text: hostile }, { to: SPACE });
    expect(receipt.ok).toBe(true);
    const sent = e.history(SPACE).map((m) => String(m.message.text));
    // Each `<` gains a zero-width space and each opening marker one: at most twice the input.
    expect(sent.join("").length).toBeLessThanOrEqual(2 * hostile.length);
    expect(e.observe(SPACE).every((m) => m.mentions === undefined)).toBe(true);
  });
});

describe("Google Chat adapter: idempotent ids", () => {
  it("sends each part with a client-assigned id derived from its key, and names it by that id", async () => {
    const { e, adapter } = await setup();
    const receipt = await adapter.send({ text: "once" }, { to: SPACE }, { idempotencyKey: "turn-1" });
    const stored = e.history(SPACE)[0];
    expect(stored?.clientId).toMatch(/^client-[0-9a-f]{40}$/);
    expect(receipt.messages[0]?.id).toBe(`${SPACE}/messages/${stored?.clientId}`);
  });

  it("a resend after a timeout the API processed is answered ALREADY_EXISTS: delivered once, no second message", async () => {
    const clock = createManualClock();
    const { e, adapter } = await setup({ clock, timeoutMs: 1000, retry: { maxRetries: 2 } });
    e.inject({ kind: "timeout-after-processed", method: "spaces.messages.create" });
    const receipt = await clock.run(adapter.send({ text: "only once" }, { to: SPACE }));
    expect(receipt.ok).toBe(true);
    expect(receipt.messages).toHaveLength(1);
    expect(e.observe(SPACE).map((m) => m.text)).toEqual(["only once"]);
    expect(e.requests.map((r) => r.status)).toEqual([0, 409]);
  });

  it("the id is Google's form for any key", () => {
    for (const key of ["A", "x".repeat(24), "Ab_-9".repeat(5)])
      expect(clientMessageId(key)).toMatch(/^client-[a-z0-9-]{1,56}$/);
  });
});

describe("Google Chat adapter: threads", () => {
  it("replies in a thread by name; a thread that is not there is a missing thread unless fallback is asked", async () => {
    const { e, adapter } = await setup();
    const { thread } = e.seedMessage(SPACE, "question");
    const reply = await adapter.send({ text: "answer" }, { to: SPACE, thread });
    expect(reply.ok).toBe(true);
    expect(e.observe(SPACE)[0]?.thread).toBe(thread);
    const missing = await adapter.send({ text: "x" }, { to: SPACE, thread: `${SPACE}/threads/nope` });
    expect(missing.failures[0]?.error).toMatchObject({ missing: "thread" });
    const keyed = await adapter.send({ text: "new" }, { to: SPACE, thread: "ticket-42" });
    expect(keyed.failures[0]?.error).toMatchObject({ missing: "thread" });
  });

  it("with threadFallback a thread key starts its thread, and the next message joins it", async () => {
    const { e, adapter } = await setup({ threadFallback: true });
    await adapter.send({ text: "first" }, { to: SPACE, thread: "ticket-42" });
    await adapter.send({ text: "second" }, { to: SPACE, thread: "ticket-42" });
    const [first, second] = e.history(SPACE);
    expect(second?.thread).toBe(first?.thread);
    expect(e.observe(SPACE).map((m) => m.thread)).toEqual([undefined, first?.thread]);
  });
});

describe("Google Chat adapter: media", () => {
  it("shows an image in a card through media.host, the bytes Chat fetched the file's", async () => {
    const { e, adapter } = await setup();
    const receipt = await adapter.send({ text: "Look:", mediaUrls: [fixturePath("png")] }, { to: SPACE });
    expect(receipt.ok).toBe(true);
    expect(receipt.messages.map((m) => m.kind)).toEqual(["text", "image"]);
    expect(e.observe(SPACE)[1]).toMatchObject({ kind: "image", sha256: fixtureSha256("png") });
    expect(receipt.messages[1]?.media).toMatchObject([{ source: 0, via: "hosted" }]);
    expect(e.urlFetches).toHaveLength(1);
  });

  it("links a PDF from a card, and a voice note goes as a file, degraded in the receipt", async () => {
    const { e, adapter } = await setup();
    const receipt = await adapter.send({ mediaUrls: [fixturePath("pdf")] }, { to: SPACE });
    expect(receipt.ok).toBe(true);
    expect(e.observe(SPACE)[0]).toMatchObject({
      kind: "document",
      fileName: "doc.pdf",
      sha256: fixtureSha256("pdf"),
    });
    const voice = await adapter.send({ mediaUrls: [fixturePath("ogg")], audioAsVoice: true }, { to: SPACE });
    expect(voice.ok).toBe(true);
    expect(voice.degraded.map((d) => d.from)).toContain("voice");
  });

  it("without a media host, a file fails before any call, its action naming media.host", async () => {
    const { e, adapter } = await setup({ media: { localRoots: [root] } });
    const receipt = await adapter.send({ text: "The file:", mediaUrls: [fixturePath("png")] }, { to: SPACE });
    expect(receipt.messages.map((m) => m.kind)).toEqual(["text"]);
    expect(receipt.failures[0]?.error).toBeInstanceOf(UnsupportedFeatureError);
    expect(receipt.failures[0]?.action).toMatch(/set media\.host/);
    expect(e.requests.map((r) => r.method)).toEqual(["spaces.messages.create"]);
  });
});

describe("Google Chat adapter: edits, deletes, quota", () => {
  it("settles a live preview by patching its text, the emulator keeping the revisions", async () => {
    const { e, adapter } = await setup();
    const preview = adapter.preview?.({ to: SPACE });
    preview?.update("Draft");
    const receipt = await preview?.settle({ text: "Final **text**" });
    expect(receipt?.ok).toBe(true);
    expect(e.observe(SPACE).map((m) => [m.text, m.revisions])).toEqual([["Final text", ["Draft"]]]);
    expect(e.requests.map((r) => r.method)).toEqual(["spaces.messages.create", "spaces.messages.patch"]);
  });

  it("deletes the preview when the reply opens with a file", async () => {
    const { e, adapter } = await setup();
    const preview = adapter.preview?.({ to: SPACE });
    preview?.update("Draft");
    const receipt = await preview?.settle({ mediaUrls: [fixturePath("png")] });
    expect(receipt?.ok).toBe(true);
    expect(e.observe(SPACE).map((m) => m.kind)).toEqual(["image"]);
    expect(e.requests.map((r) => r.method)).toContain("spaces.messages.delete");
  });

  it("waits out a RESOURCE_EXHAUSTED on the injected clock and delivers once", async () => {
    const clock = createManualClock();
    const { e, adapter } = await setup({ clock, retry: { maxRetries: 2 } });
    e.inject({ kind: "rate-limit", retryAfterMs: 2000, method: "spaces.messages.create" });
    const receipt = await clock.run(adapter.send({ text: "after the wait" }, { to: SPACE }));
    expect(receipt.ok).toBe(true);
    expect(clock.now()).toBeGreaterThanOrEqual(2000);
    expect(e.observe(SPACE)).toHaveLength(1);
  });
});
