import {
  type LoadedMedia,
  PlatformError,
  RateLimitedError,
  TargetNotFoundError,
  TransportError,
} from "@outbox/core";
import { Api } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { telegramCapabilities } from "../src/capabilities.js";
import {
  startTelegramEmulator,
  type TelegramEmulator,
  type TelegramEmulatorOptions,
} from "../src/testing/index.js";
import { createTelegramTransport } from "../src/transport/transport.js";

let emulator: TelegramEmulator;
afterEach(() => emulator.close());

async function setup(options: TelegramEmulatorOptions = { rateLimits: false }) {
  emulator = await startTelegramEmulator({ chats: [{ id: 42 }, { id: -100 }], ...options });
  const api = new Api(emulator.token, { apiRoot: emulator.apiRoot, timeoutSeconds: 5 });
  return createTelegramTransport(api, { capabilities: telegramCapabilities, linkPreview: false });
}

const target = { to: "42" };
const BYTES = Buffer.from("plain notes\n");

/** A small text document, as core's loader hands it over. */
function note(): LoadedMedia {
  return {
    kind: "document",
    mimeType: "text/plain",
    fileName: "notes.txt",
    size: BYTES.length,
    source: { type: "inline" },
    async *open() {
      yield BYTES;
    },
  };
}
const text = (html: string, plain = html) => ({ text: html, plain });

describe("Telegram transport: editText", () => {
  it("edits the bot's message in place: new text and formatting, the old text as a revision", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("Hel") });
    const first = await transport.editText?.({
      type: "edit",
      target,
      messageId: id,
      text: text("Hello <b>wor</b>", "Hello wor"),
    });
    await transport.editText?.({
      type: "edit",
      target,
      messageId: id,
      text: text("Hello <b>world</b>", "Hello world"),
    });
    expect(first).toEqual({ id });
    expect(emulator.observe(42)).toEqual([
      {
        kind: "text",
        text: "Hello world",
        formatting: [{ kind: "bold", offset: 6, length: 5 }],
        revisions: ["Hel", "Hello wor"],
      },
    ]);
  });

  it("treats Telegram's 'message is not modified' as success, changing nothing", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("<i>same</i>", "same") });
    const sent = await transport.editText?.({
      type: "edit",
      target,
      messageId: id,
      text: text("<i>same</i>", "same"),
    });
    expect(sent).toEqual({ id });
    expect(emulator.requests.at(-1)).toMatchObject({ method: "editMessageText", status: 400 });
    expect(emulator.observe(42)[0]).not.toHaveProperty("revisions");
  });

  it("resends refused markup as plain text and reports the degradation", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("a") });
    const sent = await transport.editText?.({
      type: "edit",
      target,
      messageId: id,
      text: text("<b>broken", "broken"),
    });
    expect(sent?.degraded).toMatchObject({ from: "telegram-html", to: "plain" });
    expect(emulator.observe(42)[0]).toEqual({ kind: "text", text: "broken", revisions: ["a"] });
  });

  it("maps an unknown message to TargetNotFoundError('message') and a user's message to PlatformError", async () => {
    const transport = await setup();
    const unknown = transport.editText?.({ type: "edit", target, messageId: "999", text: text("x") });
    await expect(unknown).rejects.toBeInstanceOf(TargetNotFoundError);
    await expect(unknown).rejects.toMatchObject({ missing: "message", message: /message to edit not found/ });
    await expect(
      transport.editText?.({ type: "edit", target, messageId: "abc", text: text("x") }),
    ).rejects.toMatchObject({ missing: "message" });
    const theirs = emulator.seedMessage(42, "user text");
    const foreign = transport.editText?.({ type: "edit", target, messageId: theirs, text: text("x") });
    await expect(foreign).rejects.toBeInstanceOf(PlatformError);
    await expect(foreign).rejects.toMatchObject({ description: "Bad Request: message can't be edited" });
  });

  it("refuses text over 4096 characters without changing the message", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("short") });
    const long = transport.editText?.({ type: "edit", target, messageId: id, text: text("x".repeat(4097)) });
    await expect(long).rejects.toMatchObject({ description: "Bad Request: message is too long" });
    expect(emulator.observe(42)).toEqual([{ kind: "text", text: "short" }]);
  });

  it("turns an edit over the chat's flood limit into RateLimitedError with Telegram's retry_after", async () => {
    const transport = await setup({ rateLimits: { perChatBurst: 1 }, now: () => 0 });
    const { id } = await transport.sendText({ type: "text", target, text: text("one") });
    const edit = transport.editText?.({ type: "edit", target, messageId: id, text: text("two") });
    await expect(edit).rejects.toBeInstanceOf(RateLimitedError);
    await expect(edit).rejects.toMatchObject({ retryAfterMs: 1000 });
    expect(emulator.rateLimitRefusals()).toBe(1);
    expect(emulator.observe(42)).toEqual([{ kind: "text", text: "one" }]);
  });

  it("keeps the token out of a failed edit's error", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("a") });
    emulator.inject({ kind: "reset" });
    const error = await transport
      .editText?.({ type: "edit", target, messageId: id, text: text("b") })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(String((error as Error).message)).not.toContain(emulator.token);
  });
});

describe("Telegram transport: deleteMessage", () => {
  it("deletes the bot's message; a second delete is TargetNotFoundError('message')", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("gone soon") });
    await transport.sendText({ type: "text", target, text: text("stays") });
    await transport.deleteMessage?.({ type: "delete", target, messageId: id });
    expect(emulator.observe(42)).toEqual([{ kind: "text", text: "stays" }]);
    await expect(transport.deleteMessage?.({ type: "delete", target, messageId: id })).rejects.toMatchObject({
      missing: "message",
      message: /message to delete not found/,
    });
    await expect(
      transport.editText?.({ type: "edit", target, messageId: id, text: text("x") }),
    ).rejects.toMatchObject({ missing: "message" });
  });
});

describe("Telegram emulator: deleting an album member", () => {
  it("removes that item from the album; the album goes with its last member", async () => {
    const transport = await setup();
    const album = await transport.sendAlbum?.({
      type: "album",
      target,
      items: [
        { kind: "document", media: note() },
        { kind: "document", media: { ...note(), fileName: "second.txt" } },
      ],
    });
    const [first, second] = album?.memberIds ?? [];
    await transport.deleteMessage?.({ type: "delete", target, messageId: first as string });
    expect(emulator.observe(42)).toEqual([
      { kind: "album", items: [expect.objectContaining({ fileName: "second.txt" })] },
    ]);
    await transport.deleteMessage?.({ type: "delete", target, messageId: second as string });
    expect(emulator.observe(42)).toEqual([]);
  });
});

describe("Telegram emulator: edit rules", () => {
  async function call(method: string, body: Record<string, unknown>) {
    const response = await fetch(`${emulator.apiRoot}/bot${emulator.token}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { ok: boolean; description?: string; result?: Record<string, unknown> };
  }

  it("answers not-modified with Telegram's full description, also when only the markup is equal", async () => {
    await setup();
    const sent = await call("sendMessage", { chat_id: 42, text: "<b>x</b>", parse_mode: "HTML" });
    const id = sent.result?.message_id;
    const same = await call("editMessageText", {
      chat_id: 42,
      message_id: id,
      text: "<b>x</b>",
      parse_mode: "HTML",
    });
    expect(same.description).toBe(
      "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
    // Same visible text without the bold entity is a change.
    const plain = await call("editMessageText", { chat_id: 42, message_id: id, text: "x" });
    expect(plain.ok).toBe(true);
    expect(plain.result).toMatchObject({ message_id: id, text: "x", edit_date: expect.any(Number) });
    expect(plain.result).not.toHaveProperty("entities");
  });

  it("refuses edits of media messages, empty text, a missing message_id, and unknown chats", async () => {
    const transport = await setup();
    const photo = await transport.sendMedia({ type: "media", target, kind: "document", media: note() });
    const id = Number(photo.id);
    const answers = await Promise.all([
      call("editMessageText", { chat_id: 42, message_id: id, text: "caption?" }),
      call("editMessageText", { chat_id: 42, message_id: id, text: "   " }),
      call("editMessageText", { chat_id: 42, text: "x" }),
      call("editMessageText", { chat_id: 7, message_id: 1, text: "x" }),
    ]);
    expect(answers.map((a) => a.description)).toEqual([
      "Bad Request: there is no text in the message to edit",
      "Bad Request: message text is empty",
      "Bad Request: message identifier is not specified",
      "Bad Request: chat not found",
    ]);
  });

  it("counts an accepted edit in the chat's flood limits, and a refused one not", async () => {
    let now = 0;
    await setup({ rateLimits: { perChatBurst: 2 }, now: () => now });
    const sent = await call("sendMessage", { chat_id: 42, text: "a" });
    const id = sent.result?.message_id;
    expect((await call("editMessageText", { chat_id: 42, message_id: id, text: "a" })).ok).toBe(false); // not modified
    expect((await call("editMessageText", { chat_id: 42, message_id: id, text: "b" })).ok).toBe(true);
    const over = await call("editMessageText", { chat_id: 42, message_id: id, text: "c" });
    expect(over).toMatchObject({ ok: false, error_code: 429, parameters: { retry_after: 1 } });
    now = 1000;
    expect((await call("editMessageText", { chat_id: 42, message_id: id, text: "c" })).ok).toBe(true);
    expect(emulator.rateLimitRefusals()).toBe(1);
    expect(emulator.observe(42)).toEqual([{ kind: "text", text: "c", revisions: ["a", "b"] }]);
  });

  it("deletes a user's message in a private chat but not in a group", async () => {
    await setup();
    const mine = emulator.seedMessage(42, "hello bot");
    const theirs = emulator.seedMessage(-100, "hello group");
    expect((await call("deleteMessage", { chat_id: 42, message_id: Number(mine) })).ok).toBe(true);
    expect(await call("deleteMessage", { chat_id: -100, message_id: Number(theirs) })).toMatchObject({
      ok: false,
      description: "Bad Request: message can't be deleted for everyone",
    });
  });
});
