import { readFileSync } from "node:fs";
import { fixturePath } from "@outbox/conformance";
import { AuthError, ConfigError, TargetNotFoundError } from "@outbox/core";
import { createSlackAdapter } from "@outbox/slack";
import { type SlackEmulatorOptions, startSlackEmulator } from "@outbox/slack/testing";
import { App } from "@slack/bolt";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

async function emulator(options: SlackEmulatorOptions = {}) {
  const e = await startSlackEmulator({ channels: [{ id: "C1" }], ...options });
  open.push(e);
  return e;
}

describe("createSlackAdapter: clients", () => {
  it("needs a token, from the config or the given client (a ConfigError naming the field and the fix)", () => {
    expect(() => createSlackAdapter()).toThrow(ConfigError);
    expect(() => createSlackAdapter({})).toThrow(ConfigError);
    expect(() => createSlackAdapter({})).toThrow(
      /^createSlackAdapter: `token` is missing.*; fix: pass `token`/,
    );
    expect(() => createSlackAdapter({ client: new WebClient() })).toThrow(/`token`/);
  });

  it("sends through a sibling of a given WebClient and leaves that client's retry policy alone", async () => {
    const e = await emulator();
    const client = new WebClient(e.token, { slackApiUrl: e.slackApiUrl });
    const adapter = createSlackAdapter({ client });
    e.inject({ kind: "server-error", status: 503 });
    const receipt = await adapter.send({ text: "once" }, { to: "C1" });
    expect(receipt.ok).toBe(false);
    expect(
      e.requests.map((r) => r.status),
      "no hidden retry of the 503",
    ).toEqual([503]);
    expect(Reflect.get(client, "retryConfig")).toMatchObject({ retries: 10 });
    expect(Reflect.get(client, "rejectRateLimitedCalls")).toBe(false);
  });

  it("accepts a Bolt App (its client) without needing Bolt at run time", async () => {
    const e = await emulator();
    const app = new App({
      token: e.token,
      signingSecret: "s",
      clientOptions: { slackApiUrl: e.slackApiUrl },
    });
    const adapter = createSlackAdapter({ client: app });
    const receipt = await adapter.send({ text: "from a Bolt app" }, { to: "C1" });
    expect(receipt.ok).toBe(true);
    expect(e.observe("C1").map((m) => m.text)).toEqual(["from a Bolt app"]);
    expect(e.requests.map((r) => r.method)).toContain("auth.test");
  });

  it("uses the fetch from clientOptions for every call, the byte upload included", async () => {
    const e = await emulator();
    const seen: string[] = [];
    const adapter = createSlackAdapter({
      token: e.token,
      slackApiUrl: e.slackApiUrl,
      clientOptions: {
        fetch: (url, init) => {
          seen.push(`${new URL(url).pathname.split("/")[1]}:${String(init?.body ?? "").slice(0, 200)}`);
          return fetch(url, init as RequestInit);
        },
      },
    });
    await adapter.send({ text: "see https://example.com" }, { to: "C1" });
    await adapter.send(
      { media: [{ mimeType: "text/plain", data: new Uint8Array([104, 105]), fileName: "a.txt" }] },
      { to: "C1" },
    );
    expect(seen.filter((s) => s.startsWith("upload"))).toHaveLength(1);
    expect(seen.find((s) => s.includes("unfurl_links"))).toContain("unfurl_links=false");
  });
});

describe("createSlackAdapter: targets, threads and replies", () => {
  it("mentions notify nobody by default; with mentions: true the emulator records whom they notify", async () => {
    const e = await emulator();
    const text = "<!channel> and <@U0123ABCD>, see <!subteam^S1>";
    await createSlackAdapter({ token: e.token, slackApiUrl: e.slackApiUrl }).send({ text }, { to: "C1" });
    await createSlackAdapter({ token: e.token, slackApiUrl: e.slackApiUrl, mentions: true }).send(
      { text },
      { to: "C1" },
    );
    expect(e.observe("C1").map((m) => m.mentions)).toEqual([
      undefined,
      { everyone: true, users: ["U0123ABCD", "S1"] },
    ]);
  });

  it("opens a DM for a user id once, then posts there", async () => {
    const e = await emulator({ users: ["U7"] });
    const adapter = createSlackAdapter({ token: e.token, slackApiUrl: e.slackApiUrl });
    await adapter.send({ text: "one" }, { to: "U7" });
    await adapter.send({ text: "two" }, { to: "U7" });
    expect(e.requests.filter((r) => r.method === "conversations.open")).toHaveLength(1);
    expect(e.observe("D7").map((m) => m.text)).toEqual(["one", "two"]);
  });

  it("replies in the thread of the message replied to; a target thread wins over the reply", async () => {
    const e = await emulator();
    const adapter = createSlackAdapter({ token: e.token, slackApiUrl: e.slackApiUrl });
    const root = e.seedMessage("C1", "root");
    const other = e.seedMessage("C1", "other");
    await adapter.send({ text: "reply", replyToId: root }, { to: "C1" });
    await adapter.send({ text: "in thread", replyToId: root }, { to: "C1", thread: other });
    expect(e.observe("C1").map((m) => [m.text, m.thread])).toEqual([
      ["reply", root],
      ["in thread", other],
    ]);
  });

  it("a vanished reply target is delivered without it (degraded); a vanished thread fails", async () => {
    const e = await emulator();
    const adapter = createSlackAdapter({ token: e.token, slackApiUrl: e.slackApiUrl });
    const reply = await adapter.send({ text: "still here", replyToId: "1.000009" }, { to: "C1" });
    expect(reply.ok).toBe(true);
    expect(reply.degraded).toMatchObject([{ from: "reply", to: "none" }]);
    const thread = await adapter.send({ text: "lost" }, { to: "C1", thread: "1.000009" });
    expect(thread.failures[0]?.error).toBeInstanceOf(TargetNotFoundError);
    expect(thread.failures[0]?.error).toMatchObject({ missing: "thread" });
  });
});

describe("createSlackAdapter: files", () => {
  it("the receipt carries the ts of the message the channel shows, also when Slack shares late", async () => {
    const e = await emulator({ pendingShares: 2 });
    const adapter = createSlackAdapter({ token: e.token, slackApiUrl: e.slackApiUrl });
    const png = {
      mimeType: "application/pdf",
      data: new TextEncoder().encode("%PDF-1.4 x"),
      fileName: "a.pdf",
    };
    const other = { ...png, data: new TextEncoder().encode("%PDF-1.4 y"), fileName: "b.pdf" };
    const receipt = await adapter.send({ text: "caption", media: [png, other] }, { to: "C1" });
    expect(receipt.ok).toBe(true);
    const [stored] = e.history("C1");
    expect(receipt.messages).toEqual([{ id: stored?.ts, kind: "album", part: 0 }]);
    expect(e.observe("C1")[0]).toMatchObject({
      kind: "album",
      caption: "caption",
      items: [{ fileName: "a.pdf" }, { fileName: "b.pdf" }],
    });
  });

  it("a file Slack shares too late (or files:read missing) is still delivered; the receipt says it holds the file id", async () => {
    const e = await emulator({ pendingShares: 10, scopes: ["chat:write", "files:write"] });
    const adapter = createSlackAdapter({ token: e.token, slackApiUrl: e.slackApiUrl });
    const pdf = {
      mimeType: "application/pdf",
      data: new TextEncoder().encode("%PDF-1.4 x"),
      fileName: "a.pdf",
    };
    const receipt = await adapter.send({ media: [pdf] }, { to: "C1" });
    expect(receipt.ok).toBe(true);
    expect(receipt.messages[0]?.id).toMatch(/^F\d+$/);
    expect(receipt.degraded).toMatchObject([{ from: "message ts", to: "file id" }]);
  });

  it("voice asked on Slack goes as an audio file, with a degraded entry", async () => {
    const e = await emulator();
    const adapter = createSlackAdapter({ token: e.token, slackApiUrl: e.slackApiUrl });
    const ogg = { mimeType: "audio/ogg", data: readFileSync(fixturePath("ogg")), fileName: "v.ogg" };
    const receipt = await adapter.send({ text: "", media: [ogg], audioAsVoice: true }, { to: "C1" });
    expect(receipt.messages[0]?.kind).toBe("audio");
    expect(receipt.degraded).toMatchObject([{ from: "voice", to: "audio" }]);
    expect(e.observe("C1")[0]?.kind).toBe("audio");
  });
});

describe("createSlackAdapter: errors", () => {
  const cases: Array<[string, SlackEmulatorOptions, string, new (...args: never[]) => Error, RegExp]> = [
    [
      "not_in_channel",
      { channels: [{ id: "C1", member: false }] },
      "C1",
      TargetNotFoundError,
      /invite the app/,
    ],
    ["channel_not_found", {}, "C404", TargetNotFoundError, /channel_not_found/],
    ["is_archived", { channels: [{ id: "C1", archived: true }] }, "C1", TargetNotFoundError, /archived/],
    ["missing_scope", { scopes: ["files:write"] }, "C1", AuthError, /needs chat:write/],
    ["token_revoked", { revokedTokens: ["xoxb-outbox-emulator"] }, "C1", AuthError, /token_revoked/],
  ];
  for (const [code, options, to, type, message] of cases)
    it(`${code} → ${type.name}, the message says what to do and never holds the token`, async () => {
      const e = await emulator(options);
      const adapter = createSlackAdapter({ token: e.token, slackApiUrl: e.slackApiUrl });
      const receipt = await adapter.send({ text: "x" }, { to });
      const error = receipt.failures[0]?.error;
      expect(error).toBeInstanceOf(type);
      expect(error?.message).toMatch(message);
      expect(JSON.stringify(receipt)).not.toContain(e.token);
      expect(error?.message).not.toContain(e.token);
    });

  it("the token is declared to core's redaction: echoed back by the platform, it still never shows", async () => {
    const token = "plain-secret-4711";
    const e = await emulator({ token });
    const adapter = createSlackAdapter({ token, slackApiUrl: e.slackApiUrl });
    e.inject({ kind: "reject", description: `bad request for ${token}` });
    const receipt = await adapter.send({ text: "x" }, { to: "C1" });
    expect(receipt.failures[0]?.error.message).toContain("bad request for");
    expect(JSON.stringify(receipt)).not.toContain(token);
    expect(receipt.failures[0]?.error.message).not.toContain(token);
  });

  it("invalid_auth → AuthError", async () => {
    const e = await emulator();
    const adapter = createSlackAdapter({ token: "xoxb-wrong", slackApiUrl: e.slackApiUrl });
    const receipt = await adapter.send({ text: "x" }, { to: "C1" });
    expect(receipt.failures[0]?.error).toBeInstanceOf(AuthError);
  });
});
