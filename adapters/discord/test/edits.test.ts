import { getEventListeners } from "node:events";
import { readFileSync } from "node:fs";
import { fixturePath } from "@outbox/conformance";
import { AuthError, PlatformError, RateLimitedError, TargetNotFoundError } from "@outbox/core";
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordTransport } from "../src/index.js";
import { createDiscordRest, type DiscordRest } from "../src/rest/create-rest.js";
import {
  DEFAULT_CHANNEL,
  type DiscordEmulator,
  type DiscordEmulatorOptions,
  startDiscordEmulator,
} from "../src/testing/index.js";

const OGG = readFileSync(fixturePath("ogg"));
let emulator: DiscordEmulator;
let rest: DiscordRest;
afterEach(async () => {
  await rest.close();
  await emulator.close();
});

async function setup(options: DiscordEmulatorOptions = { messageBucket: false, editBucket: false }) {
  emulator = await startDiscordEmulator(options);
  rest = createDiscordRest({ token: emulator.token, api: emulator.api });
  return createDiscordTransport(rest.rest);
}

const target = { to: DEFAULT_CHANNEL };
const text = (markdown: string, plain = markdown) => ({ text: markdown, plain });

describe("Discord transport: editText (Edit Message)", () => {
  it("ten edits under one signal (a live preview's) leave no abort listener on it", async () => {
    const transport = await setup();
    const controller = new AbortController();
    const { signal } = controller;
    const { id } = await transport.sendText({ type: "text", target, text: text("0"), signal });
    const counts: number[] = [];
    for (let edit = 1; edit <= 10; edit += 1) {
      await transport.editText?.({ type: "edit", target, messageId: id, text: text(String(edit)), signal });
      counts.push(getEventListeners(signal, "abort").length);
    }
    expect(counts).toEqual(Array.from({ length: 10 }, () => 0));
    await transport.deleteMessage?.({ type: "delete", target, messageId: id, signal });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("edits in place: new formatting, the old text as a revision, the edit bucket's state reported", async () => {
    const transport = await setup({ messageBucket: false });
    const { id } = await transport.sendText({ type: "text", target, text: text("Hel") });
    const first = await transport.editText?.({
      type: "edit",
      target,
      messageId: id,
      text: text("Hello **wor**"),
    });
    await transport.editText?.({ type: "edit", target, messageId: id, text: text("Hello **world**") });
    expect(first).toMatchObject({ id, rateLimit: { remaining: 4 } });
    expect(emulator.observe(DEFAULT_CHANNEL)).toEqual([
      {
        kind: "text",
        text: "Hello world",
        formatting: [{ kind: "bold", offset: 6, length: 5 }],
        revisions: ["Hel", "Hello wor"],
      },
    ]);
    expect(emulator.messages()[0]?.payload).toMatchObject({ content: "Hello **world**" });
    expect(emulator.requests.at(-1)).toMatchObject({
      route: `PATCH /channels/${DEFAULT_CHANNEL}/messages/${id}`,
      status: 200,
    });
  });

  it("sends allowed_mentions with every edit, so an edited @everyone pings nobody", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("a") });
    let body: unknown;
    rest.rest.on?.("response", ((request: { data?: { body?: unknown } }) => {
      body = request.data?.body;
    }) as never);
    await transport.editText?.({ type: "edit", target, messageId: id, text: text("@everyone look") });
    expect(body).toEqual({ content: "@everyone look", allowed_mentions: { parse: [] } });
  });

  it("an edit that changes nothing succeeds (Discord accepts it)", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("same") });
    await expect(
      transport.editText?.({ type: "edit", target, messageId: id, text: text("same") }),
    ).resolves.toEqual({
      id,
    });
  });

  it("maps 10008 Unknown Message to TargetNotFoundError('message') and 50005 to PlatformError", async () => {
    const transport = await setup();
    const gone = transport.editText?.({
      type: "edit",
      target,
      messageId: "1300000000000000999",
      text: text("x"),
    });
    await expect(gone).rejects.toBeInstanceOf(TargetNotFoundError);
    await expect(gone).rejects.toMatchObject({ missing: "message", message: /code 10008/ });
    await expect(
      transport.editText?.({ type: "edit", target, messageId: "not-an-id", text: text("x") }),
    ).rejects.toMatchObject({ missing: "message" });
    const theirs = emulator.seedMessage(DEFAULT_CHANNEL, "a user's words");
    const foreign = transport.editText?.({ type: "edit", target, messageId: theirs, text: text("x") });
    await expect(foreign).rejects.toBeInstanceOf(PlatformError);
    await expect(foreign).rejects.toMatchObject({ status: 403, message: /code 50005.*only the bot's own/ });
  });

  it("refuses content over 2000 characters (50035), the message unchanged", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("short") });
    const long = transport.editText?.({ type: "edit", target, messageId: id, text: text("x".repeat(2001)) });
    await expect(long).rejects.toBeInstanceOf(PlatformError);
    await expect(long).rejects.toMatchObject({ message: /code 50035/ });
    expect(emulator.observe(DEFAULT_CHANNEL)).toEqual([{ kind: "text", text: "short" }]);
  });

  it("hands a 429 on an edit to the engine as RateLimitedError with Discord's Retry-After", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("one") });
    emulator.inject({ kind: "rate-limit", retryAfterMs: 1500 });
    const over = transport.editText?.({ type: "edit", target, messageId: id, text: text("two") });
    await expect(over).rejects.toBeInstanceOf(RateLimitedError);
    await expect(over).rejects.toMatchObject({ retryAfterMs: 1500 });
    expect(emulator.observe(DEFAULT_CHANNEL)).toEqual([{ kind: "text", text: "one" }]);
  });

  it("keeps the token out of a failed edit's error", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("a") });
    emulator.inject({ kind: "reject", description: `token ${emulator.token} refused` });
    const error = await transport
      .editText?.({ type: "edit", target, messageId: id, text: text("b") })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    // The platform's own text is kept as is; the engine's redaction (AdapterDefinition.secrets) removes it.
    expect((error as Error).message).not.toContain(`Bot ${emulator.token}`);
  });
});

describe("Discord transport: deleteMessage", () => {
  it("deletes the bot's message (204); another user's is refused; a second delete is TargetNotFoundError", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("gone soon") });
    await transport.sendText({ type: "text", target, text: text("stays") });
    await transport.deleteMessage?.({ type: "delete", target, messageId: id });
    expect(emulator.requests.at(-1)?.status).toBe(204);
    expect(emulator.observe(DEFAULT_CHANNEL)).toEqual([{ kind: "text", text: "stays" }]);
    await expect(transport.deleteMessage?.({ type: "delete", target, messageId: id })).rejects.toMatchObject({
      missing: "message",
    });
    const theirs = emulator.seedMessage(DEFAULT_CHANNEL, "mine");
    await expect(
      transport.deleteMessage?.({ type: "delete", target, messageId: theirs }),
    ).rejects.toBeInstanceOf(AuthError);
  });
});

describe("Discord emulator: Edit Message rules", () => {
  async function call(method: string, path: string, body?: object) {
    const response = await fetch(`${emulator.api}/v10${path}`, {
      method,
      headers: { authorization: `Bot ${emulator.token}`, "content-type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const raw = await response.text();
    return {
      status: response.status,
      remaining: response.headers.get("x-ratelimit-remaining"),
      body: (raw === "" ? {} : JSON.parse(raw)) as Record<string, unknown>,
    };
  }

  it("keeps absent content, refuses emptied content (50006), a wrong type (50035) and voice edits (50162)", async () => {
    const transport = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("keep") });
    const path = `/channels/${DEFAULT_CHANNEL}/messages/${id}`;
    expect((await call("PATCH", path, { allowed_mentions: { parse: [] } })).body).toMatchObject({
      content: "keep",
      edited_timestamp: expect.any(String),
    });
    expect((await call("PATCH", path, { content: null })).body).toMatchObject({ code: 50006 });
    expect((await call("PATCH", path, { content: 7 })).body).toMatchObject({ code: 50035 });
    expect(
      (await call("PATCH", path, { content: "x", allowed_mentions: { parse: ["all"] } })).body,
    ).toMatchObject({
      code: 50035,
    });
    const voice = emulator.messages().length;
    await transport.sendMedia({
      type: "media",
      target,
      kind: "voice",
      media: {
        kind: "audio",
        mimeType: "audio/ogg",
        fileName: "note.ogg",
        size: OGG.length,
        source: { type: "inline" },
        async *open() {
          yield OGG;
        },
      },
    });
    const voiceId = emulator.messages()[voice]?.id;
    expect(
      (await call("PATCH", `/channels/${DEFAULT_CHANNEL}/messages/${voiceId}`, { content: "x" })).body,
    ).toMatchObject({
      code: 50162,
    });
    expect(emulator.observe(DEFAULT_CHANNEL)[0]).toEqual({ kind: "text", text: "keep", revisions: ["keep"] });
  });

  it("limits edits in a bucket of their own per channel and counts the 429s", async () => {
    let now = 0;
    const transport = await setup({
      messageBucket: { limit: 5, windowMs: 5000 },
      editBucket: { limit: 2, windowMs: 5000 },
      now: () => now,
    });
    const { id } = await transport.sendText({ type: "text", target, text: text("a") });
    const path = `/channels/${DEFAULT_CHANNEL}/messages/${id}`;
    expect(await call("PATCH", path, { content: "b" })).toMatchObject({ status: 200, remaining: "1" });
    expect(await call("PATCH", path, { content: "c" })).toMatchObject({ status: 200, remaining: "0" });
    expect(await call("PATCH", path, { content: "d" })).toMatchObject({
      status: 429,
      body: { retry_after: 5 },
    });
    expect(await call("POST", `/channels/${DEFAULT_CHANNEL}/messages`, { content: "new" })).toMatchObject({
      status: 200,
      remaining: "3",
    });
    now = 5000;
    expect((await call("PATCH", path, { content: "d" })).status).toBe(200);
    expect(emulator.rateLimitRefusals()).toBe(1);
    expect(emulator.observe(DEFAULT_CHANNEL)[0]).toEqual({
      kind: "text",
      text: "d",
      revisions: ["a", "b", "c"],
    });
  });

  it("refuses to delete a user's message in a DM (50003)", async () => {
    await setup();
    const dm = (await call("POST", "/users/@me/channels", { recipient_id: "1200000000000000001" })).body
      .id as string;
    const theirs = emulator.seedMessage(dm, "hi");
    expect((await call("DELETE", `/channels/${dm}/messages/${theirs}`)).body).toMatchObject({ code: 50003 });
    expect((await call("DELETE", `/channels/${dm}/messages/1300000000000000999`)).body).toMatchObject({
      code: 10008,
    });
  });
});
