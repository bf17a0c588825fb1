import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { REST } from "@discordjs/rest";
import { fixturePath, fixtureSha256 } from "@outbox/conformance";
import {
  AuthError,
  ConfigError,
  createManualClock,
  MediaError,
  PlatformError,
  RateLimitedError,
  TargetNotFoundError,
} from "@outbox/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDiscordAdapter, type DiscordAdapterConfig, discordCapabilities } from "../src/index.js";
import {
  DEFAULT_CHANNEL,
  DEFAULT_USER,
  type DiscordEmulator,
  startDiscordEmulator,
} from "../src/testing/index.js";

const fixtures = fixturePath("png").replace(/[^/]+$/, "");
let emulator: DiscordEmulator;

beforeEach(async () => {
  emulator = await startDiscordEmulator({
    messageBucket: false,
    channels: [
      { id: DEFAULT_CHANNEL },
      { id: "1100000000000000002", visible: false },
      { id: "1100000000000000003", canSend: false },
      { id: "1100000000000000004", voiceMessages: false },
      { id: "1100000000000000005", type: "thread", parent: DEFAULT_CHANNEL },
    ],
  });
});
afterEach(() => emulator.close());

const adapter = (config: Partial<DiscordAdapterConfig> = {}) =>
  createDiscordAdapter({
    token: emulator.token,
    api: `${emulator.api}/`,
    media: { localRoots: [fixtures] },
    retry: { maxRetries: 2 },
    ...config,
  });
const to = { to: DEFAULT_CHANNEL };
const payloads = () => emulator.messages().map((m) => m.payload ?? {});

describe("createDiscordAdapter", () => {
  it("needs a token, a REST or a client: a ConfigError naming the field and the fix", () => {
    expect(() => createDiscordAdapter({})).toThrow(ConfigError);
    expect(() => createDiscordAdapter({})).toThrow(
      /^createDiscordAdapter: `token` is missing.*; fix: pass `token`/,
    );
  });

  it("never changes a REST it is handed; one without a rate-limit policy is refused, unchanged", () => {
    const bare = new REST({ api: emulator.api, retries: 0 }).setToken(emulator.token);
    const before = { ...bare.options };
    let error: unknown;
    try {
      createDiscordAdapter({ rest: bare });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe("rest.options.rejectOnRateLimit");
    expect((error as ConfigError).message).toMatch(/fix: create it with rejectOnRateLimit: \(\) => true/);
    expect(bare.options).toEqual(before);
    expect(bare.options.rejectOnRateLimit).toBeNull();
    const policy = () => false;
    const chosen = new REST({ api: emulator.api, retries: 0, rejectOnRateLimit: policy }).setToken(
      emulator.token,
    );
    const options = { ...chosen.options };
    createDiscordAdapter({ rest: chosen });
    expect(chosen.options).toEqual(options);
    expect(chosen.options.rejectOnRateLimit).toBe(policy);
  });

  it("sends through a token, a REST, and a discord.js Client without gateway login", async () => {
    const { Client } = await import("discord.js");
    const rejectOnRateLimit = () => true;
    const rest = new REST({ api: emulator.api, retries: 0, rejectOnRateLimit }).setToken(emulator.token);
    const client = new Client({ intents: [], rest: { api: emulator.api, retries: 0, rejectOnRateLimit } });
    client.rest.setToken(emulator.token);
    const adapters = [adapter(), createDiscordAdapter({ rest }), createDiscordAdapter({ client })];
    for (const [index, each] of adapters.entries()) {
      const receipt = await each.send({ text: `via **${index}**`, mediaUrls: [fixturePath("png")] }, to);
      expect(receipt.failures).toEqual([]);
    }
    expect(emulator.observe().map((m) => [m.kind, m.caption, m.sha256])).toEqual(
      [0, 1, 2].map((i) => ["image", `via ${i}`, fixtureSha256("png")]),
    );
    await Promise.all(adapters.map((each) => each.close?.()));
    await client.destroy();
  });

  it("pings nobody by default; allowedMentions is configurable", async () => {
    await adapter().send({ text: "@everyone look" }, to);
    await adapter({ allowedMentions: { parse: ["users"] } }).send({ text: "<@1>" }, to);
    expect(payloads().map((p) => p.allowed_mentions)).toEqual([{ parse: [] }, { parse: ["users"] }]);
    expect(emulator.observe().map((m) => m.text)).toEqual(["@everyone look", "<@1>"]);
    expect(payloads()[1]?.content).toBe("\\<@1\\>");
    expect(emulator.observe().map((m) => m.mentions)).toEqual([undefined, undefined]);
    await adapter({ allowedMentions: { parse: ["everyone"] } }).send({ text: "@everyone look" }, to);
    expect(emulator.observe()[2]?.mentions).toEqual({ everyone: true });
  });

  it("replies with fail_if_not_exists false; a vanished target still delivers, degraded", async () => {
    const inbound = emulator.seedMessage(DEFAULT_CHANNEL, "question");
    const ok = await adapter().send({ text: "answer", replyToId: inbound }, to);
    expect(ok.degraded).toEqual([]);
    const gone = await adapter().send({ text: "late", replyToId: "1100000000000009999" }, to);
    expect(gone.ok).toBe(true);
    expect(gone.degraded).toEqual([expect.objectContaining({ part: 0, from: "reply", to: "none" })]);
    expect(payloads().map((p) => p.message_reference)).toEqual([
      { message_id: inbound, fail_if_not_exists: false },
      { message_id: "1100000000000009999", fail_if_not_exists: false },
    ]);
    expect(emulator.observe().map((m) => m.replyTo)).toEqual([inbound, undefined]);
  });

  it("posts to the thread channel, and opens a DM channel once for user:<id>", async () => {
    await adapter().send({ text: "in thread" }, { to: DEFAULT_CHANNEL, thread: "1100000000000000005" });
    const dm = adapter();
    await dm.send({ text: "dm 1" }, { to: `user:${DEFAULT_USER}` });
    await dm.send({ text: "dm 2" }, { to: `user:${DEFAULT_USER}` });
    expect(emulator.observe(DEFAULT_CHANNEL)).toEqual([
      { kind: "text", text: "in thread", thread: "1100000000000000005" },
    ]);
    const routes = emulator.requests.map((r) => r.route);
    expect(routes.filter((r) => r === "POST /users/@me/channels")).toHaveLength(1);
    expect(emulator.observe().map((m) => m.text)).toEqual(["in thread", "dm 1", "dm 2"]);
  });

  it("refuses ids that are not snowflakes before any call", async () => {
    const receipt = await adapter().send({ text: "x" }, { to: "general" });
    expect(receipt.failures[0]?.error).toBeInstanceOf(TargetNotFoundError);
    expect(emulator.requests).toHaveLength(0);
  });

  it("streams uploads (chunked multipart with payload_json and files[n])", async () => {
    await adapter().send({ mediaUrls: [fixturePath("png"), fixturePath("jpeg")] }, to);
    const upload = emulator.requests.find((r) => r.route.endsWith("/messages"));
    expect(upload?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.transferEncoding).toBe("chunked");
    expect(payloads()[0]?.attachments).toEqual([
      { id: 0, filename: "image.png" },
      { id: 1, filename: "photo.jpg" },
    ]);
    expect(emulator.observe()[0]?.kind).toBe("album");
  });

  it("maps Discord's refusals onto core's errors", async () => {
    const send = (target: string) => adapter().send({ text: "x" }, { to: target });
    const failure = async (target: string) => (await send(target)).failures[0]?.error;
    expect(await failure("1100000000000000002")).toBeInstanceOf(AuthError); // 50001
    expect(await failure("1100000000000000003")).toBeInstanceOf(AuthError); // 50013
    expect(await failure("1100000000000000404")).toMatchObject({ missing: "chat" }); // 10003
    emulator.inject({ kind: "reject", description: "Invalid Form Body" });
    expect(await failure(DEFAULT_CHANNEL)).toBeInstanceOf(PlatformError);
  });

  it("maps 40005 (a server with a lower upload limit than configured) to MediaError too-large", async () => {
    await emulator.close();
    emulator = await startDiscordEmulator({ maxUploadBytes: 50 });
    const receipt = await adapter().send({ mediaUrls: [fixturePath("png")] }, to);
    expect(receipt.failures[0]?.error).toBeInstanceOf(MediaError);
    expect(receipt.failures[0]?.error).toMatchObject({ reason: "too-large" });
  });

  it("honours 429s (Retry-After) and gives up on a permanent one after maxRetries", async () => {
    emulator.inject({ kind: "rate-limit", retryAfterMs: 20, times: 1 });
    expect((await adapter().send({ text: "once" }, to)).ok).toBe(true);
    emulator.inject({ kind: "rate-limit", retryAfterMs: 10, times: 1000 });
    const receipt = await adapter().send({ text: "never" }, to);
    expect(receipt.failures[0]?.error).toBeInstanceOf(RateLimitedError);
    expect(emulator.requests.filter((r) => r.status === 429)).toHaveLength(1 + 3);
    expect(emulator.observe().map((m) => m.text)).toEqual(["once"]);
  });

  it("sends an over-limit file with an https source as a link, stated in the receipt", async () => {
    const { conformanceMedia } = await import("@outbox/conformance");
    const media = await conformanceMedia();
    const small = createDiscordAdapter({
      token: emulator.token,
      api: emulator.api,
      media: media.policy,
      maxUploadBytes: 50,
    });
    const receipt = await small.send({ text: "see", mediaUrls: [media.url("png")] }, to);
    expect(receipt.ok).toBe(true);
    expect(receipt.degraded).toEqual([expect.objectContaining({ to: "link" })]);
    expect(emulator.observe().at(-1)?.formatting?.[0]).toMatchObject({ kind: "link", url: media.url("png") });
    expect(small.capabilities.media.maxBytes.default).toBe(50);
    expect(discordCapabilities.media.maxBytes.default).toBe(10 * 1024 * 1024);
  });

  it("respects X-RateLimit buckets: a burst over the bucket waits for the reset instead of provoking 429s", async () => {
    await emulator.close();
    // The emulator's buckets, the adapter's waits and @discordjs/rest's own bucket (which
    // reads Date.now) run on one virtual clock: the assertion is on that clock's time, not on
    // how fast the machine answered.
    const clock = createManualClock();
    const epoch = Date.now();
    const date = vi.spyOn(Date, "now").mockImplementation(() => epoch + clock.now());
    try {
      emulator = await startDiscordEmulator({ messageBucket: { limit: 2, windowMs: 3000 }, now: clock.now });
      const one = adapter({ clock, pacing: { latencyMs: 0 } });
      // Five messages back to back (each sent as soon as the previous one is answered, so no
      // request is in flight while the clock moves). The declared 5 per 5 s alone would send
      // them all at 0; the bucket's headers hold the third and the fifth until its reset.
      const sentAt: number[] = [];
      for (const n of [1, 2, 3, 4, 5]) {
        const receipt = await clock.run(one.send({ text: `m${n}` }, to));
        expect(receipt.failures).toEqual([]);
        sentAt.push(clock.now());
      }
      expect(emulator.observe().map((m) => m.text)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
      expect(emulator.rateLimitRefusals()).toBe(0);
      expect(sentAt).toEqual([0, 0, 3000, 3000, 6000]);
    } finally {
      date.mockRestore();
    }
  });

  it("takes the wait from the JSON retry_after when a 429 has no Retry-After header", async () => {
    let calls = 0;
    const server = createServer((req, res) => {
      req.resume();
      calls += 1;
      const [status, body] =
        calls === 1
          ? [429, { message: "You are being rate limited.", retry_after: 0.05, global: true }]
          : [200, { id: "1" }];
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    try {
      const limited = await createDiscordAdapter({ token: "t", api, retry: { maxRetries: 0 } }).send(
        { text: "x" },
        to,
      );
      expect(limited.failures[0]?.error).toMatchObject({ retryAfterMs: 50 });
      const waited = await createDiscordAdapter({ token: "t", api }).send({ text: "y" }, to);
      expect(waited.ok).toBe(true);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("never shows the token in a receipt, even when Discord echoes it", async () => {
    emulator.inject({ kind: "reject", description: `token ${emulator.token} is not welcome` });
    const receipt = await adapter().send({ text: "x" }, to);
    const error = receipt.failures[0]?.error;
    expect(error).toBeInstanceOf(PlatformError);
    expect(JSON.stringify({ message: error?.message, receipt })).not.toContain(emulator.token);
  });
});
