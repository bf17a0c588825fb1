import { Api } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTelegramEmulator, type TelegramEmulator } from "../src/testing/index.js";
import { rejection } from "./support/rejection.js";

let emulator: TelegramEmulator;
let api: Api;

beforeEach(async () => {
  emulator = await startTelegramEmulator({ chats: [{ id: 42 }], rateLimits: false });
  api = new Api(emulator.token, { apiRoot: emulator.apiRoot, timeoutSeconds: 5 });
});
afterEach(() => emulator.close());

describe("Telegram emulator: parse_mode MarkdownV2", () => {
  it("decodes every entity into the stored entities and the observation", async () => {
    const source =
      "*b* _i_ __u__ ~s~ ||h|| `c\\`` [l](https://x.test/a\\)b) 1\\.5\\!\n```py\nx = 1\n```\n>q1\n>q2\nend";
    const message = await api.sendMessage(42, source, { parse_mode: "MarkdownV2" });
    expect(message.text).toBe("b i u s h c` l 1.5!\nx = 1\n\nq1\nq2\nend");
    expect(message.entities).toEqual([
      { type: "bold", offset: 0, length: 1 },
      { type: "italic", offset: 2, length: 1 },
      { type: "underline", offset: 4, length: 1 },
      { type: "strikethrough", offset: 6, length: 1 },
      { type: "spoiler", offset: 8, length: 1 },
      { type: "code", offset: 10, length: 2 },
      { type: "text_link", offset: 13, length: 1, url: "https://x.test/a)b" },
      { type: "pre", offset: 20, length: 6, language: "py" },
      { type: "blockquote", offset: 27, length: 5 },
    ]);
    expect(emulator.observe(42)[0]?.formatting).toEqual([
      { kind: "bold", offset: 0, length: 1 },
      { kind: "italic", offset: 2, length: 1 },
      { kind: "strike", offset: 6, length: 1 },
      { kind: "spoiler", offset: 8, length: 1 },
      { kind: "code", offset: 10, length: 2 },
      { kind: "link", offset: 13, length: 1, url: "https://x.test/a)b" },
      { kind: "pre", offset: 20, length: 6, language: "py" },
      { kind: "quote", offset: 27, length: 5 },
    ]);
  });

  it("nests entities and keeps reserved characters literal inside code", async () => {
    const message = await api.sendMessage(42, "*bold _both_* `a.b-c!`", { parse_mode: "MarkdownV2" });
    expect(message.text).toBe("bold both a.b-c!");
    expect(message.entities).toEqual([
      { type: "bold", offset: 0, length: 9 },
      { type: "italic", offset: 5, length: 4 },
      { type: "code", offset: 10, length: 6 },
    ]);
  });

  it("reads an expandable quote (**> … ||) and a quote line that starts with >", async () => {
    const message = await api.sendMessage(42, "**>hidden\n>more||\nafter", { parse_mode: "MarkdownV2" });
    expect(message.text).toBe("hidden\nmore\nafter");
    expect(message.entities).toEqual([{ type: "expandable_blockquote", offset: 0, length: 11 }]);
    expect(emulator.observe(42)[0]?.formatting).toEqual([{ kind: "quote", offset: 0, length: 11 }]);
  });

  it.each([
    ["Done.", "Character '.' is reserved and must be escaped with the preceding '\\' at byte offset 4"],
    ["Wow!", "Character '!' is reserved and must be escaped with the preceding '\\' at byte offset 3"],
    ["a - b", "Character '-' is reserved and must be escaped with the preceding '\\' at byte offset 2"],
    ["é (x)", "Character '(' is reserved and must be escaped with the preceding '\\' at byte offset 3"],
    ["*bold", "Can't find end of Bold entity at byte offset 0"],
    ["x `code", "Can't find end of Code entity at byte offset 2"],
    ["```\npre", "Can't find end of Pre entity at byte offset 0"],
    ["a > b", "Character '>' is reserved and must be escaped with the preceding '\\' at byte offset 2"],
  ])("refuses %j with Telegram's 400", async (source, tail) => {
    const error = await rejection(api.sendMessage(42, source, { parse_mode: "MarkdownV2" }));
    expect(error.error_code).toBe(400);
    expect(error.description).toBe(`Bad Request: can't parse entities: ${tail}`);
    expect(emulator.observe()).toEqual([]);
  });

  it("counts the 4096 limit on the parsed text, markup excluded", async () => {
    const error = await rejection(
      api
        .sendMessage(42, `*${"a".repeat(4096)}*`, { parse_mode: "MarkdownV2" })
        .then(() => api.sendMessage(42, `*${"a".repeat(4097)}*`, { parse_mode: "MarkdownV2" })),
    );
    expect(error.description).toBe("Bad Request: message is too long");
  });
});

describe("Telegram emulator: parse_mode Markdown (legacy)", () => {
  it("decodes bold, italic, code, pre and links; other characters are plain", async () => {
    const source = "*b* _i_ `c` [l](https://x.test/) a.b-c! \\*x\n```js\ny\n```";
    const message = await api.sendMessage(42, source, { parse_mode: "Markdown" });
    expect(message.text).toBe("b i c l a.b-c! *x\ny\n");
    expect(message.entities).toEqual([
      { type: "bold", offset: 0, length: 1 },
      { type: "italic", offset: 2, length: 1 },
      { type: "code", offset: 4, length: 1 },
      { type: "text_link", offset: 6, length: 1, url: "https://x.test/" },
      { type: "pre", offset: 18, length: 2, language: "js" },
    ]);
  });

  it("refuses an unclosed entity with Telegram's 400", async () => {
    const error = await rejection(api.sendMessage(42, "snake_case", { parse_mode: "Markdown" }));
    expect(error.description).toBe(
      "Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 5",
    );
  });

  it("still refuses a parse_mode Telegram does not know", async () => {
    const error = await rejection(api.sendMessage(42, "x", { parse_mode: "Textile" as unknown as "HTML" }));
    expect(error.description).toBe("Bad Request: unsupported parse_mode");
  });
});
