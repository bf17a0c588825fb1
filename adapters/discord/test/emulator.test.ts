/**
 * The emulator is as strict as Discord: driven here by a bare @discordjs/rest client, the
 * same wire traffic the adapter produces.
 */

import { readdirSync, readFileSync } from "node:fs";
import { DiscordAPIError, RateLimitError, REST } from "@discordjs/rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createEmulatedChannel,
  DEFAULT_CHANNEL,
  type DiscordEmulator,
  startDiscordEmulator,
} from "../src/testing/index.js";

let emulator: DiscordEmulator;
let rest: REST;
let clock = 0;
const route = `/channels/${DEFAULT_CHANNEL}/messages` as const;

const client = () =>
  new REST({ api: emulator.api, retries: 0, offset: 0, rejectOnRateLimit: () => true }).setToken(
    emulator.token,
  );

beforeEach(async () => {
  clock = 0;
  emulator = await startDiscordEmulator({ messageBucket: false, maxUploadBytes: 100 });
  rest = client();
});
afterEach(async () => {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
  await emulator.close();
});

const refusal = async (request: Promise<unknown>) => {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DiscordAPIError);
  return error as DiscordAPIError;
};
const file = (name: string, bytes = 10, contentType = "image/png") => ({
  name,
  data: Buffer.alloc(bytes, 1),
  contentType,
});

describe("Discord emulator", () => {
  it("creates messages with snowflake ids and X-RateLimit headers, and refuses the third in a window of 2", async () => {
    await emulator.close();
    emulator = await startDiscordEmulator({ messageBucket: { limit: 2, windowMs: 1000 }, now: () => clock });
    rest = client();
    const seen: Array<Record<string, string>> = [];
    rest.on("response", (_request, response) => {
      seen.push(Object.fromEntries(response.headers as unknown as Iterable<[string, string]>));
    });
    const first = (await rest.post(route, { body: { content: "a" } })) as { id: string };
    expect(first.id).toMatch(/^\d{17,20}$/);
    expect(BigInt(first.id) >> 22n).toBeGreaterThan(0n);
    await rest.post(route, { body: { content: "b" } });
    expect(seen.map((h) => h["x-ratelimit-remaining"])).toEqual(["1", "0"]);
    expect(seen[0]).toMatchObject({ "x-ratelimit-limit": "2", "x-ratelimit-reset-after": "1.000" });
    // A client that ignores the headers (a fresh REST) is refused with a 429.
    const blind = client();
    const limited = await blind.post(route, { body: { content: "c" } }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(emulator.rateLimitRefusals()).toBe(1);
    clock = 1000;
    await blind.post(route, { body: { content: "d" } });
    expect(emulator.observe().map((m) => m.text)).toEqual(["a", "b", "d"]);
    blind.clearHashSweeper();
    blind.clearHandlerSweeper();
  });

  it("enforces Discord's global limit per bot over every route: a 429 marked global, then a token a rate's worth later", async () => {
    await emulator.close();
    emulator = await startDiscordEmulator({ messageBucket: false, globalPerSecond: 3, now: () => clock });
    const post = (content: string) =>
      fetch(`${emulator.api}/v10${route}`, {
        method: "POST",
        headers: { authorization: `Bot ${emulator.token}`, "content-type": "application/json" },
        body: JSON.stringify({ content }),
      });
    for (const content of ["a", "b", "c"]) expect((await post(content)).status).toBe(200);
    const refused = await post("d");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-global")).toBe("true");
    expect(refused.headers.get("x-ratelimit-scope")).toBe("global");
    expect(await refused.json()).toEqual({
      message: "You are being rate limited.",
      retry_after: 0.333,
      global: true,
    });
    expect(emulator.rateLimitRefusals()).toBe(1);
    clock = 334;
    expect((await post("e")).status).toBe(200);
    expect(emulator.observe().map((m) => m.text)).toEqual(["a", "b", "c", "e"]);
  });

  it("refuses content over 2000 characters with 50035 naming the field", async () => {
    await rest.post(route, { body: { content: "x".repeat(2000) } });
    const error = await refusal(rest.post(route, { body: { content: "x".repeat(2001) } }));
    expect(error.code).toBe(50035);
    expect(error.message).toContain("content[BASE_TYPE_MAX_LENGTH]");
  });

  it("refuses empty messages, more than 10 files, and files over the upload limit (40005)", async () => {
    expect((await refusal(rest.post(route, { body: {} }))).code).toBe(50006);
    const eleven = Array.from({ length: 11 }, (_, i) => file(`f${i}.png`));
    expect((await refusal(rest.post(route, { body: {}, files: eleven }))).code).toBe(50035);
    const big = await refusal(rest.post(route, { body: {}, files: [file("big.png", 101)] }));
    expect([big.code, big.status]).toEqual([40005, 413]);
    await rest.post(route, {
      body: { attachments: [{ id: 0, filename: "ok.png" }] },
      files: [file("ok.png", 100)],
    });
    expect(emulator.observe()).toEqual([
      expect.objectContaining({ kind: "image", fileName: "ok.png", bytes: 100 }),
    ]);
  });

  it("enforces the voice message rules", async () => {
    const meta = {
      id: 0,
      filename: "v.ogg",
      duration_secs: 1.5,
      waveform: Buffer.from([1, 2, 3]).toString("base64"),
    };
    const ogg = file("v.ogg", 10, "audio/ogg");
    const voice = (body: Record<string, unknown>, files = [ogg]) =>
      rest.post(route, { body: { flags: 8192, attachments: [meta], ...body }, files });
    expect((await refusal(voice({ content: "hi" }))).code).toBe(50159);
    expect((await refusal(voice({}, [file("v.ogg", 10, "application/ogg")]))).code).toBe(50160);
    expect((await refusal(voice({}, [ogg, ogg]))).code).toBe(50160);
    expect((await refusal(voice({ attachments: [{ id: 0, filename: "v.ogg" }] }))).code).toBe(50161);
    await voice({});
    expect(emulator.observe()).toEqual([expect.objectContaining({ kind: "voice", mimeType: "audio/ogg" })]);
  });

  it("refuses an unknown reply target unless fail_if_not_exists is false", async () => {
    const missing = { message_id: "1100000000000009999" };
    const error = await refusal(rest.post(route, { body: { content: "r", message_reference: missing } }));
    expect([error.code, error.message]).toEqual([
      50035,
      "Invalid Form Body\nmessage_reference[MESSAGE_REFERENCE_UNKNOWN_MESSAGE]: Unknown message",
    ]);
    const sent = (await rest.post(route, {
      body: { content: "r", message_reference: { ...missing, fail_if_not_exists: false } },
    })) as Record<string, unknown>;
    expect(sent).not.toHaveProperty("message_reference");
  });

  it("answers unknown channels (10003), bad tokens (401) and injected faults", async () => {
    expect(
      (await refusal(rest.post("/channels/1100000000000000777/messages", { body: { content: "x" } }))).code,
    ).toBe(10003);
    const stranger = new REST({ api: emulator.api, retries: 0 }).setToken("wrong");
    expect((await refusal(stranger.post(route, { body: { content: "x" } }))).status).toBe(401);
    emulator.inject({ kind: "reject", description: "conformance refusal" });
    expect((await refusal(rest.post(route, { body: { content: "x" } }))).message).toBe("conformance refusal");
    emulator.inject({ kind: "server-error", status: 502 });
    await expect(rest.post(route, { body: { content: "x" } })).rejects.toMatchObject({ status: 502 });
    emulator.inject({ kind: "rate-limit", retryAfterMs: 250 });
    await expect(rest.post(route, { body: { content: "x" } })).rejects.toMatchObject({ retryAfter: 250 });
    expect(emulator.rateLimitRefusals(), "injected 429s are not the emulator's own").toBe(0);
    stranger.clearHashSweeper();
    stranger.clearHandlerSweeper();
  });

  it("decodes what it stored into formatting spans as a client shows them", async () => {
    await rest.post(route, {
      body: { content: "**b** *i* ~~s~~ `c` ||p|| [l](https://x.test/) \\*lit\\*\n> q\n```js\nx\n```" },
    });
    const [message] = emulator.observe();
    expect(message?.text).toBe("b i s c p l *lit*\nq\nx");
    expect(message?.formatting).toEqual([
      { kind: "bold", offset: 0, length: 1 },
      { kind: "italic", offset: 2, length: 1 },
      { kind: "strike", offset: 4, length: 1 },
      { kind: "code", offset: 6, length: 1 },
      { kind: "spoiler", offset: 8, length: 1 },
      { kind: "link", offset: 10, length: 1, url: "https://x.test/" },
      { kind: "quote", offset: 18, length: 1 },
      { kind: "pre", offset: 20, length: 1, language: "js" },
    ]);
  });

  it("createEmulatedChannel: a ready adapter, a seeded inbound message to reply to, the observation", async () => {
    const channel = await createEmulatedChannel();
    try {
      expect(channel.platform).toBe("discord");
      const receipt = await channel.adapter.send({ text: "[[reply_to_current]] **hi**" }, channel.target);
      expect(receipt.ok).toBe(true);
      expect(channel.observe()).toEqual([
        {
          kind: "text",
          text: "hi",
          formatting: [{ kind: "bold", offset: 0, length: 2 }],
          replyTo: channel.target.currentMessageId,
        },
      ]);
    } finally {
      await channel.close();
    }
  });

  it("./testing needs no test framework or conformance package at run time", () => {
    const dir = new URL("../src/testing/", import.meta.url);
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = readFileSync(new URL(file, dir), "utf8");
      expect(source, file).not.toMatch(/from "(vitest|@outbox\/conformance)"/);
    }
  });
});

describe("emulator: enforced nonces (Create Message, discord-api-docs message.mdx)", () => {
  it("returns the message an enforced nonce created within the window instead of a second one", async () => {
    await emulator.close();
    emulator = await startDiscordEmulator({ messageBucket: false, nonceWindowMs: 60_000, now: () => clock });
    rest = client();
    const post = (body: object) => rest.post(route, { body }) as Promise<{ id: string; nonce?: string }>;
    const first = await post({ content: "once", nonce: "n-1", enforce_nonce: true });
    expect(first.nonce).toBe("n-1");
    expect((await post({ content: "once", nonce: "n-1", enforce_nonce: true })).id).toBe(first.id);
    expect(emulator.observe()).toHaveLength(1);
    // Without enforce_nonce the nonce deduplicates nothing; past the window neither does it.
    expect((await post({ content: "once", nonce: "n-1" })).id).not.toBe(first.id);
    clock += 60_001;
    expect((await post({ content: "once", nonce: "n-1", enforce_nonce: true })).id).not.toBe(first.id);
    expect(emulator.observe()).toHaveLength(3);
    const long = await refusal(post({ content: "x", nonce: "n".repeat(26), enforce_nonce: true }));
    expect(long.code).toBe(50035);
  });
});
