import { createHash } from "node:crypto";
import { Api, HttpError, InputFile } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTelegramEmulator, type TelegramEmulator } from "../src/testing/index.js";
import { rejection } from "./support/rejection.js";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5f1e0fc0000000049454e44ae426082",
  "hex",
);
/** grammY's types forbid mixed groups; the emulator must reject them on the wire too. */
type MediaGroup = Parameters<Api["sendMediaGroup"]>[1];
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let emulator: TelegramEmulator;
let api: Api;

beforeEach(async () => {
  emulator = await startTelegramEmulator({
    chats: [{ id: 42, topics: [7] }, { id: -100123 }],
    rateLimits: false,
    fetchUrl: async (url) => {
      if (url.endsWith("/red.png"))
        return {
          status: 200,
          body: (async function* () {
            yield PNG;
          })(),
        };
      return { status: 404, body: null };
    },
  });
  api = new Api(emulator.token, { apiRoot: emulator.apiRoot, timeoutSeconds: 5 });
});
afterEach(() => emulator.close());

describe("Telegram emulator: text", () => {
  it("records a tg://user link as a mention of that user, in a send and in an edit", async () => {
    const sent = await api.sendMessage(42, '<a href="tg://user?id=7">you</a> look', { parse_mode: "HTML" });
    expect(emulator.observe(42)[0]?.mentions).toEqual({ users: ["7"] });
    await api.editMessageText(42, sent.message_id, 'and <a href="tg://user?id=8">you</a>', {
      parse_mode: "HTML",
    });
    expect(emulator.observe(42)[0]?.mentions).toEqual({ users: ["7", "8"] });
    await api.sendMessage(42, '<a href="https://x.test/">no one</a>', { parse_mode: "HTML" });
    expect(emulator.observe(42)[1]?.mentions).toBeUndefined();
  });

  it("parses HTML and records the visible text and its formatting spans", async () => {
    const message = await api.sendMessage(
      42,
      '<b>bold</b> &amp; <a href="https://x.test/?a=1&amp;b">link</a>',
      {
        parse_mode: "HTML",
      },
    );
    expect(message.text).toBe("bold & link");
    expect(message.entities).toEqual([
      { type: "bold", offset: 0, length: 4 },
      { type: "text_link", offset: 7, length: 4, url: "https://x.test/?a=1&b" },
    ]);
    expect(emulator.observe(42)).toEqual([
      {
        kind: "text",
        text: "bold & link",
        formatting: [
          { kind: "bold", offset: 0, length: 4 },
          { kind: "link", offset: 7, length: 4, url: "https://x.test/?a=1&b" },
        ],
      },
    ]);
  });

  it("decodes every formatting entity into the suite's span kinds (underline has none)", async () => {
    await api.sendMessage(
      42,
      '<s>s</s> <code>c</code> <tg-spoiler>h</tg-spoiler> <u>u</u>\n<blockquote>q</blockquote>\n<pre><code class="language-py">x</code></pre>\n<pre>y</pre>',
      { parse_mode: "HTML" },
    );
    expect(emulator.observe(42)[0]?.formatting).toEqual([
      { kind: "strike", offset: 0, length: 1 },
      { kind: "code", offset: 2, length: 1 },
      { kind: "spoiler", offset: 4, length: 1 },
      { kind: "quote", offset: 8, length: 1 },
      { kind: "pre", offset: 10, length: 1, language: "py" },
      { kind: "pre", offset: 12, length: 1 },
    ]);
  });

  it.each([
    ["<b>unclosed", `Can't find end tag corresponding to start tag "b"`],
    ["a <foo>b</foo>", `Unsupported start tag "foo" at byte offset 2`],
    ["1 < 2", "Unexpected end of name token at byte offset 2"],
    ["<b>x</i>", `Unmatched end tag at byte offset 4, expected "</b>", found "</i>"`],
    ["AT&T", "Unsupported HTML entity at byte offset 2"],
    ["<code><b>x</b></code>", `Entity "b" can't be nested inside "code" at byte offset 6`],
    [
      "<blockquote><blockquote>x</blockquote></blockquote>",
      `Entity "blockquote" can't be nested inside "blockquote" at byte offset 12`,
    ],
    ["é<span>x</span>", `Unsupported start tag "span" at byte offset 2`],
  ])("rejects malformed HTML %j with Telegram's text", async (html, tail) => {
    const error = await rejection(api.sendMessage(42, html, { parse_mode: "HTML" }));
    expect(error.error_code).toBe(400);
    expect(error.description).toBe(`Bad Request: can't parse entities: ${tail}`);
    expect(emulator.observe()).toEqual([]);
  });

  it("accepts every supported tag", async () => {
    const html =
      "<b>a</b><strong>b</strong><i>c</i><em>d</em><u>e</u><ins>f</ins><s>g</s><strike>h</strike><del>i</del>" +
      '<tg-spoiler>j</tg-spoiler><span class="tg-spoiler">k</span><code>l</code><pre>m</pre>' +
      '<pre><code class="language-ts">n</code></pre><blockquote>o</blockquote><blockquote expandable>p</blockquote>' +
      "&lt;&gt;&quot;&#65;&#x42;";
    const message = await api.sendMessage(42, html, { parse_mode: "HTML" });
    expect(message.text).toBe('abcdefghijklmnop<>"AB');
    expect(message.entities?.filter((e) => e.offset === 13)).toEqual([
      { type: "pre", offset: 13, length: 1, language: "ts" },
    ]);
    expect(message.entities?.filter((e) => e.offset === 12)).toEqual([
      { type: "pre", offset: 12, length: 1 },
    ]);
    expect(message.entities).toContainEqual({ type: "expandable_blockquote", offset: 15, length: 1 });
  });

  it("counts the limit in UTF-16 code units of the visible text", async () => {
    const fits = `<b>${"&amp;".repeat(4096)}</b>`;
    await api.sendMessage(42, fits, { parse_mode: "HTML" });
    const error = await rejection(api.sendMessage(42, "😀".repeat(2049)));
    expect(error.description).toBe("Bad Request: message is too long");
  });

  it("rejects unknown chats, topics and reply targets", async () => {
    expect((await rejection(api.sendMessage(7, "x"))).description).toBe("Bad Request: chat not found");
    const thread = await rejection(api.sendMessage(42, "x", { message_thread_id: 8 }));
    expect(thread.description).toBe("Bad Request: message thread not found");
    const replyError = await rejection(api.sendMessage(42, "x", { reply_parameters: { message_id: 99 } }));
    expect(replyError.description).toBe("Bad Request: message to be replied not found");
    const sent = await api.sendMessage(42, "x", {
      message_thread_id: 7,
      reply_parameters: { message_id: 99, allow_sending_without_reply: true },
    });
    expect(sent.reply_to_message).toBeUndefined();
    const target = emulator.seedMessage(42, "hello");
    const reply = await api.sendMessage(42, "y", { reply_parameters: { message_id: Number(target) } });
    expect(reply.reply_to_message?.message_id).toBe(Number(target));
    expect(emulator.observe(42)).toEqual([
      { kind: "text", text: "x", thread: "7" },
      { kind: "text", text: "y", replyTo: target },
    ]);
  });

  it("rejects a bad token with 401", async () => {
    const other = new Api("1:wrong", { apiRoot: emulator.apiRoot });
    expect((await rejection(other.sendMessage(42, "x"))).error_code).toBe(401);
  });
});

describe("Telegram emulator: media", () => {
  it("reads grammY multipart uploads strictly: an unquoted name with a space or `;` is refused", async () => {
    // grammY writes the name unquoted after `filename=`: Telegram would cut it at the `;`
    // and read what follows as parameters, so the emulator refuses it outright.
    const refused = await rejection(api.sendPhoto(42, new InputFile(PNG, "my red; name=chat_id.png")));
    expect(refused.description).toMatch(/^Bad Request: wrong multipart body: malformed Content-Disposition/);
    const message = await api.sendPhoto(42, new InputFile(PNG, '"my red, file.png"'), {
      caption: "<i>cap</i>",
      parse_mode: "HTML",
    });
    expect(message.photo?.[0]).toMatchObject({ width: 1, height: 1 });
    expect(emulator.observe()).toEqual([
      {
        kind: "image",
        caption: "cap",
        formatting: [{ kind: "italic", offset: 0, length: 3 }],
        fileName: "my red, file.png",
        mimeType: "image/png",
        sha256: sha(PNG),
        bytes: PNG.length,
      },
    ]);
  });

  it("streams async-iterable uploads", async () => {
    const chunk = Buffer.alloc(64 * 1024, 7);
    const source = async function* () {
      for (let i = 0; i < 40; i++) yield chunk;
    };
    await api.sendDocument(42, new InputFile(() => source(), "blob.bin"));
    expect(emulator.observe()[0]).toMatchObject({
      kind: "document",
      bytes: 40 * chunk.length,
      fileName: "blob.bin",
    });
  });

  it("rejects an over-long caption", async () => {
    const error = await rejection(
      api.sendPhoto(42, new InputFile(PNG, "a.png"), { caption: "x".repeat(1025) }),
    );
    expect(error.description).toBe("Bad Request: message caption is too long");
  });

  it("downloads URL media itself and counts the fetches", async () => {
    await api.sendPhoto(42, "https://media.test/red.png");
    expect(emulator.urlFetches).toEqual(["https://media.test/red.png"]);
    expect(emulator.observe()[0]).toMatchObject({ kind: "image", fileName: "red.png", sha256: sha(PNG) });
    const error = await rejection(api.sendPhoto(42, "https://media.test/missing.png"));
    expect(error.description).toBe("Bad Request: failed to get HTTP URL content");
  });

  it("enforces the media group rules", async () => {
    const photo = () => ({ type: "photo" as const, media: new InputFile(PNG, "p.png") });
    const one = await rejection(api.sendMediaGroup(42, [photo()]));
    expect(one.description).toBe("Bad Request: wrong number of media in the group: must be 2-10");
    const eleven = await rejection(api.sendMediaGroup(42, Array.from({ length: 11 }, photo)));
    expect(eleven.description).toBe("Bad Request: wrong number of media in the group: must be 2-10");
    const mixed = await rejection(
      api.sendMediaGroup(42, [
        photo(),
        { type: "document", media: new InputFile(PNG, "d.png") },
      ] as unknown as MediaGroup),
    );
    expect(mixed.description).toBe("Bad Request: document can't be mixed with other media types");
    const sent = await api.sendMediaGroup(42, [
      { ...photo(), caption: "<b>c</b>", parse_mode: "HTML" },
      photo(),
    ]);
    expect(sent).toHaveLength(2);
    expect(emulator.observe()).toEqual([
      {
        kind: "album",
        caption: "c",
        formatting: [{ kind: "bold", offset: 0, length: 1 }],
        items: [
          {
            kind: "image",
            caption: "c",
            formatting: [{ kind: "bold", offset: 0, length: 1 }],
            fileName: "p.png",
            mimeType: "image/png",
            sha256: sha(PNG),
            bytes: PNG.length,
          },
          { kind: "image", fileName: "p.png", mimeType: "image/png", sha256: sha(PNG), bytes: PNG.length },
        ],
      },
    ]);
  });
});

describe("Telegram emulator: limits and faults", () => {
  it("answers 429 with retry_after when the flood limits are exceeded", async () => {
    let now = 0;
    const limited = await startTelegramEmulator({ now: () => now, rateLimits: { perChatBurst: 2 } });
    const client = new Api(limited.token, { apiRoot: limited.apiRoot });
    try {
      await client.sendMessage(42, "1");
      await client.sendMessage(42, "2");
      const error = await rejection(client.sendMessage(42, "3"));
      expect(error.error_code).toBe(429);
      expect(error.parameters.retry_after).toBe(1);
      expect(limited.rateLimitRefusals(), "429s under its own limits").toBe(1);
      now += 1000;
      await client.sendMessage(42, "3");
      expect(limited.observe().map((m) => m.text)).toEqual(["1", "2", "3"]);
      expect(limited.rateLimitRefusals()).toBe(1);
    } finally {
      await limited.close();
    }
  });

  it("injects faults into the next calls, always as JSON envelopes", async () => {
    emulator.inject({ kind: "rate-limit", retryAfterMs: 1500 });
    const limited = await rejection(api.sendMessage(42, "x"));
    expect([limited.error_code, limited.parameters.retry_after]).toEqual([429, 1.5]);
    emulator.inject({ kind: "server-error", status: 502, times: 2 });
    expect((await rejection(api.sendMessage(42, "x"))).error_code).toBe(502);
    expect((await rejection(api.sendMessage(42, "x"))).error_code).toBe(502);
    emulator.inject({ kind: "reject", description: "Bad Request: VOICE_MESSAGES_FORBIDDEN" });
    expect((await rejection(api.sendMessage(42, "x"))).description).toBe(
      "Bad Request: VOICE_MESSAGES_FORBIDDEN",
    );
    emulator.inject({ kind: "reset" });
    await expect(api.sendMessage(42, "x")).rejects.toBeInstanceOf(HttpError);
    await api.sendMessage(42, "ok");
    expect(emulator.observe()).toEqual([{ kind: "text", text: "ok" }]);
    expect(emulator.requests.map((r) => r.status)).toEqual([429, 502, 502, 400, 0, 200]);
    expect(emulator.rateLimitRefusals(), "an injected 429 is not a refusal under its limits").toBe(0);
  });
});

describe("Telegram emulator: request shapes and upload limits", () => {
  const url = (method: string) => `${emulator.apiRoot}/bot${emulator.token}/${method}`;

  it("accepts urlencoded and query-string parameters, answering JSON envelopes", async () => {
    const form = await fetch(url("sendMessage"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ chat_id: "42", text: "<b>form</b>", parse_mode: "HTML" }),
    });
    expect(await form.json()).toMatchObject({ ok: true, result: { text: "form" } });
    const query = await fetch(`${url("SENDMESSAGE")}?chat_id=42&text=query`);
    expect(await query.json()).toMatchObject({ ok: true, result: { text: "query" } });
    const unknown = await fetch(url("sendTelepathy"), { method: "POST" });
    expect([unknown.status, await unknown.json()]).toEqual([
      404,
      { ok: false, error_code: 404, description: "Not Found: method not found" },
    ]);
  });

  it("rejects malformed multipart bodies", async () => {
    const boundary = "----------x";
    const body = `--${boundary}\r\ncontent-disposition:form-data;name="chat_id"\r\n\r\n42\r\n--${boundary}\r\nbroken header\r\n\r\nx`;
    const response = await fetch(url("sendMessage"), {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(await response.json()).toEqual({
      ok: false,
      error_code: 400,
      description: 'Bad Request: wrong multipart body: malformed part header "broken header"',
    });
  });

  it("refuses uploads over 50 MB (413) and photos over 10 MB, without keeping them", async () => {
    const chunk = Buffer.alloc(1024 * 1024);
    const megabytes = (count: number) =>
      new InputFile(async function* () {
        yield PNG;
        for (let i = 0; i < count; i++) yield chunk;
      }, "big.png");
    const tooBig = await rejection(api.sendDocument(42, megabytes(50)));
    expect([tooBig.error_code, tooBig.description]).toEqual([413, "Request Entity Too Large"]);
    const photo = await rejection(api.sendPhoto(42, megabytes(10)));
    expect(photo.description).toBe("Bad Request: PHOTO_SAVE_FILE_INVALID");
    expect(emulator.observe()).toEqual([]);
  });
});
