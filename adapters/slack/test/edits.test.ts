import { AuthError, PlatformError, RateLimitedError, TargetNotFoundError } from "@outbox/core";
import { createSlackClient, createSlackTransport } from "@outbox/slack";
import { type SlackEmulatorOptions, startSlackEmulator } from "@outbox/slack/testing";
import { afterEach, describe, expect, it } from "vitest";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

async function setup(options: SlackEmulatorOptions = { rateLimits: false }) {
  const emulator = await startSlackEmulator({ channels: [{ id: "C1" }], ...options });
  open.push(emulator);
  const client = createSlackClient({ token: emulator.token, slackApiUrl: emulator.slackApiUrl });
  return { emulator, transport: createSlackTransport(client, { unfurl: false }) };
}

const target = { to: "C1" };
const text = (mrkdwn: string, plain = mrkdwn) => ({ text: mrkdwn, plain });

describe("Slack transport: editText (chat.update)", () => {
  it("replaces the text in place: new formatting, the old visible text as a revision", async () => {
    const { emulator, transport } = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("Hel") });
    const edited = await transport.editText?.({
      type: "edit",
      target,
      messageId: id,
      text: text("Hello *wor*"),
    });
    await transport.editText?.({
      type: "edit",
      target,
      messageId: id,
      text: text("Hello *world*", "Hello world"),
    });
    expect(edited).toEqual({ id });
    expect(emulator.observe("C1")).toEqual([
      {
        kind: "text",
        text: "Hello world",
        formatting: [{ kind: "bold", offset: 6, length: 5 }],
        revisions: ["Hel", "Hello wor"],
      },
    ]);
    expect(emulator.history("C1")[0]?.text).toBe("Hello *world*");
  });

  it("edits a message in a thread and a DM opened for a user id", async () => {
    const { emulator, transport } = await setup({ rateLimits: false, users: ["U1"] });
    const root = emulator.seedMessage("C1", "question");
    const inThread = await transport.sendText({ type: "text", target, thread: root, text: text("a") });
    await transport.editText?.({
      type: "edit",
      target,
      thread: root,
      messageId: inThread.id,
      text: text("b"),
    });
    const dm = await transport.sendText({ type: "text", target: { to: "U1" }, text: text("c") });
    await transport.editText?.({ type: "edit", target: { to: "U1" }, messageId: dm.id, text: text("d") });
    expect(emulator.observe("C1")).toEqual([
      { kind: "text", text: "b", thread: root, replyTo: root, revisions: ["a"] },
    ]);
    expect(emulator.observe("D1")).toEqual([{ kind: "text", text: "d", revisions: ["c"] }]);
  });

  it("an update that changes nothing succeeds (Slack accepts it)", async () => {
    const { emulator, transport } = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("same") });
    await expect(
      transport.editText?.({ type: "edit", target, messageId: id, text: text("same") }),
    ).resolves.toEqual({
      id,
    });
    expect(emulator.observe("C1")[0]).toMatchObject({ text: "same" });
  });

  it("maps message_not_found to TargetNotFoundError('message') and another's message to PlatformError", async () => {
    const { emulator, transport } = await setup();
    const gone = transport.editText?.({
      type: "edit",
      target,
      messageId: "1700000000.999900",
      text: text("x"),
    });
    await expect(gone).rejects.toBeInstanceOf(TargetNotFoundError);
    await expect(gone).rejects.toMatchObject({ missing: "message", message: /message_not_found/ });
    const theirs = emulator.seedMessage("C1", "a user's words");
    const foreign = transport.editText?.({ type: "edit", target, messageId: theirs, text: text("x") });
    await expect(foreign).rejects.toBeInstanceOf(PlatformError);
    await expect(foreign).rejects.toMatchObject({ description: "cant_update_message" });
    expect(emulator.history("C1").map((m) => m.text)).toEqual(["a user's words"]);
  });

  it("refuses text Slack would truncate (msg_too_long), the message unchanged", async () => {
    const { emulator, transport } = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("short") });
    const long = "x".repeat(40_001);
    const error = await transport
      .editText?.({ type: "edit", target, messageId: id, text: text(long) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).description).toMatch(/^msg_too_long/);
    expect(emulator.observe("C1")).toEqual([{ kind: "text", text: "short" }]);
  });

  it("turns a Tier 3 429 on chat.update into RateLimitedError with Slack's Retry-After", async () => {
    const { emulator, transport } = await setup({ rateLimits: { editsBurst: 1 }, now: () => 0 });
    const { id } = await transport.sendText({ type: "text", target, text: text("one") });
    await transport.editText?.({ type: "edit", target, messageId: id, text: text("two") });
    const over = transport.editText?.({ type: "edit", target, messageId: id, text: text("three") });
    await expect(over).rejects.toBeInstanceOf(RateLimitedError);
    await expect(over).rejects.toMatchObject({ retryAfterMs: 2000 });
    expect(emulator.rateLimitRefusals()).toBe(1);
    expect(emulator.observe("C1")).toEqual([{ kind: "text", text: "two", revisions: ["one"] }]);
  });

  it("needs chat:write (missing_scope → AuthError) and keeps the token out of the error", async () => {
    const { emulator, transport } = await setup({ rateLimits: false, scopes: ["files:write"] });
    const error = await transport
      .editText?.({ type: "edit", target, messageId: "1700000000.000100", text: text("x") })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toMatch(/missing_scope \(needs chat:write\)/);
    expect((error as Error).message).not.toContain(emulator.token);
  });
});

describe("Slack transport: deleteMessage (chat.delete)", () => {
  it("deletes the app's message; a user's is cant_delete_message; a second delete is TargetNotFoundError", async () => {
    const { emulator, transport } = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("gone soon") });
    await transport.sendText({ type: "text", target, text: text("stays") });
    await transport.deleteMessage?.({ type: "delete", target, messageId: id });
    expect(emulator.observe("C1")).toEqual([{ kind: "text", text: "stays" }]);
    await expect(transport.deleteMessage?.({ type: "delete", target, messageId: id })).rejects.toMatchObject({
      missing: "message",
    });
    const theirs = emulator.seedMessage("C1", "mine");
    await expect(
      transport.deleteMessage?.({ type: "delete", target, messageId: theirs }),
    ).rejects.toMatchObject({
      description: "cant_delete_message",
    });
  });
});

describe("Slack emulator: updating a file message", () => {
  it("replaces the caption and reports the old one as a revision", async () => {
    const { emulator, transport } = await setup();
    const bytes = Buffer.from("notes\n");
    const sent = await transport.sendMedia({
      type: "media",
      target,
      kind: "document",
      caption: text("old *caption*"),
      media: {
        kind: "document",
        mimeType: "text/plain",
        fileName: "notes.txt",
        size: bytes.length,
        source: { type: "inline" },
        async *open() {
          yield bytes;
        },
      },
    });
    await transport.editText?.({ type: "edit", target, messageId: sent.id, text: text("new caption") });
    expect(emulator.observe("C1")).toEqual([
      expect.objectContaining({ kind: "document", caption: "new caption", revisions: ["old caption"] }),
    ]);
    expect(emulator.observe("C1")[0]).not.toHaveProperty("formatting");
  });
});

describe("Slack emulator: chat.update rules", () => {
  async function call(emulator: { slackApiUrl: string; token: string }, method: string, body: object) {
    const response = await fetch(`${emulator.slackApiUrl}${method}`, {
      method: "POST",
      headers: {
        "content-type": "application/json; charset=utf-8",
        authorization: `Bearer ${emulator.token}`,
      },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      body: (await response.json()) as { ok: boolean; error?: string },
    };
  }

  it("refuses an update without text, markdown_text with text, and an unknown channel", async () => {
    const { emulator, transport } = await setup();
    const { id } = await transport.sendText({ type: "text", target, text: text("a") });
    const answers = await Promise.all([
      call(emulator, "chat.update", { channel: "C1", ts: id }),
      call(emulator, "chat.update", { channel: "C1", ts: id, text: "b", markdown_text: "**b**" }),
      call(emulator, "chat.update", { channel: "C9", ts: id, text: "b" }),
      call(emulator, "chat.update", { channel: "C1", text: "b" }),
    ]);
    expect(answers.map((a) => a.body.error)).toEqual([
      "no_text",
      "invalid_arguments",
      "channel_not_found",
      "message_not_found",
    ]);
    expect(emulator.observe("C1")).toEqual([{ kind: "text", text: "a" }]);
  });

  it("takes markdown_text on update, and limits chat.update and chat.delete in separate Tier 3 buckets", async () => {
    let now = 0;
    const { emulator, transport } = await setup({
      rateLimits: { editsBurst: 1, editsPerMinute: 60 },
      now: () => now,
    });
    const { id } = await transport.sendText({ type: "text", target, text: text("a") });
    expect(
      (await call(emulator, "chat.update", { channel: "C1", ts: id, markdown_text: "**b**" })).body.ok,
    ).toBe(true);
    const over = await call(emulator, "chat.update", { channel: "C1", ts: id, text: "c" });
    expect(over).toMatchObject({ status: 429, retryAfter: "1", body: { ok: false, error: "ratelimited" } });
    expect(emulator.observe("C1")).toEqual([
      { kind: "text", text: "b", formatting: [{ kind: "bold", offset: 0, length: 1 }], revisions: ["a"] },
    ]);
    expect((await call(emulator, "chat.delete", { channel: "C1", ts: id })).body.ok).toBe(true);
    now = 1000;
    expect((await call(emulator, "chat.update", { channel: "C1", ts: id, text: "c" })).body.error).toBe(
      "message_not_found",
    );
    expect(emulator.rateLimitRefusals()).toBe(1);
  });
});
