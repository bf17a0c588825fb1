import { expect } from "vitest";
import { conformanceMedia } from "../media-server.js";
import type { CaseContext, CaseDefinition, ObservedMessage } from "../types.js";
import {
  covered,
  expectFormatted,
  linesWithOffsets,
  links,
  shows,
  spannedWords,
  spansOf,
} from "./formatting.js";
import {
  expectBytes,
  expectDelivered,
  longParagraphs,
  mediaMessages,
  normalize,
  send,
  visibleText,
} from "./helpers.js";

const always = (): true => true;

/** Visible text the special-characters case must get back exactly. */
const SPECIAL = "Math: 1 < 2 && 3 > 2; 5 * 3 = 15; a_b_c; AT&T <b>not bold</b> 😀👍🏽 שלום مرحبا 𝕏𠜎";

/**
 * The code lines of a chunk lie inside its `pre` span(s), which hold nothing else and, when
 * the platform keeps code languages, carry `python`.
 */
function expectClosedCode(
  message: ObservedMessage,
  code: Array<{ line: string; offset: number }>,
  label: string,
  withLanguage: boolean,
): void {
  const pre = spansOf(message, "pre");
  expect(pre.length, `pre spans in ${label}`).toBeGreaterThan(0);
  for (const { line, offset } of code)
    expect(covered(pre, offset, line.length), `${label}: "${line}" inside a pre span`).toBe(true);
  expect(spannedWords(message, "pre").join("\n"), `${label}: pre spans hold code only`).toBe(
    code.map(({ line }) => line).join("\n"),
  );
  if (withLanguage)
    expect(
      pre.map((span) => span.language),
      `${label}: pre language`,
    ).toEqual(pre.map(() => "python"));
}

/** Send a short text that must arrive as exactly one text message; that message. */
async function sendOne(ctx: CaseContext, text: string): Promise<ObservedMessage | undefined> {
  const result = await send(ctx, { text });
  expectDelivered(result);
  expect(result.observed, "messages delivered").toHaveLength(1);
  return result.observed[0];
}

/** Text cases: plain, formatting, escaping, splitting. */
export const textCases: CaseDefinition[] = [
  {
    id: "text.plain",
    checks: "A plain sentence arrives as one text message with exactly that visible text.",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const message = await sendOne(ctx, "Hello from the Outbox conformance suite.");
      expect(message?.kind).toBe("text");
      expect(message?.text).toBe("Hello from the Outbox conformance suite.");
    },
  },
  {
    id: "text.formatting",
    checks:
      "Bold, italic, strikethrough, inline code and a link are rendered natively: each word carries its span (the link its URL), nothing else does, and no Markdown markup is visible. Where links carry no label (`formatGaps.linkLabel`), the label is followed by the URL in parentheses and the link span covers the URL.",
    gate: "always (plain words when `text.format` is `plain`)",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const message = await sendOne(
        ctx,
        "**bold** and _italic_ and ~~struck~~ and `code()` and [the docs](https://example.com/docs)",
      );
      const url = "https://example.com/docs";
      const labelled = shows(ctx, "linkLabel");
      expect(normalize(message?.text ?? ""), "visible text").toBe(
        `bold and italic and struck and code() and the docs${shows(ctx) && !labelled ? ` (${url})` : ""}`,
      );
      if (!shows(ctx)) return;
      expectFormatted(message, "bold", ["bold"]);
      expectFormatted(message, "italic", ["italic"]);
      expectFormatted(message, "strike", ["struck"]);
      expectFormatted(message, "code", ["code()"]);
      expect(links(message), "link spans with their URLs").toEqual([
        { text: labelled ? "the docs" : url, url },
      ]);
    },
  },
  {
    id: "text.spoiler",
    checks:
      "`||hidden||` text is a spoiler span over exactly those words; a platform without spoilers shows the words plain. The `||` never shows.",
    gate: "always (plain words when `formatGaps.spoiler` or `text.format` is `plain`)",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const message = await sendOne(ctx, "The answer is ||forty-two|| of course.");
      expect(normalize(message?.text ?? "")).toBe("The answer is forty-two of course.");
      if (shows(ctx, "spoiler")) expectFormatted(message, "spoiler", ["forty-two"]);
    },
  },
  {
    id: "text.quote",
    checks:
      "A `>` block quote is a quote span over exactly the quoted words; a platform without quotes shows the words plain. The text around it is not quoted.",
    gate: "always (plain words when `formatGaps.quote` or `text.format` is `plain`)",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const message = await sendOne(ctx, "Someone wrote:\n\n> quoted words here\n\nand I agree.");
      const text = normalize(message?.text ?? "");
      if (shows(ctx, "quote")) {
        expect(text).toBe("Someone wrote: quoted words here and I agree.");
        expectFormatted(message, "quote", ["quoted words here"]);
      } else expect(text).toMatch(/^Someone wrote: .*quoted words here and I agree\.$/);
    },
  },
  {
    id: "text.special-chars",
    checks:
      "`<`, `>`, `&`, `*`, `_`, literal tags, emoji, RTL and 4-byte code points arrive exactly as written.",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const message = await sendOne(ctx, SPECIAL.replace("<b>", "\\<b>").replace("</b>", "\\</b>"));
      expect(normalize(message?.text ?? "")).toBe(SPECIAL);
    },
  },
  {
    id: "text.long.split",
    checks:
      "Text longer than the limit is split into chunks within the limit; the words, in order, are all there.",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const { maxLength } = ctx.capabilities.text;
      const paragraphs = longParagraphs(ctx.capabilities);
      const result = await send(ctx, { text: paragraphs.join("\n\n") });
      expectDelivered(result);
      expect(result.observed.length, "chunks delivered").toBeGreaterThanOrEqual(2);
      for (const message of result.observed) {
        expect(message.kind).toBe("text");
        expect((message.text ?? "").length).toBeLessThanOrEqual(maxLength);
      }
      expect(visibleText(result.observed).split(" ")).toEqual(paragraphs.join(" ").split(" "));
    },
  },
  {
    id: "text.code.split",
    checks:
      "A code block longer than the limit is split between lines, each chunk a closed `pre` span (language kept) covering its code lines: no fence is visible, no line lost.",
    gate: "always (no language when `formatGaps.codeLanguage`; plain lines when `text.format` is `plain`)",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const { maxLength, chunkLength = maxLength } = ctx.capabilities.text;
      const lines = Array.from(
        { length: Math.ceil((chunkLength * 1.6) / 24) },
        (_, i) => `print("line ${i}")  # ok`,
      );
      const result = await send(ctx, { text: `Code:\n\n\`\`\`python\n${lines.join("\n")}\n\`\`\`` });
      expectDelivered(result);
      expect(result.observed.length, "chunks delivered").toBeGreaterThanOrEqual(2);
      const seen: string[] = [];
      let withCode = 0;
      for (const [index, message] of result.observed.entries()) {
        const text = message.text ?? "";
        expect(text.length).toBeLessThanOrEqual(maxLength);
        expect(text).not.toContain("```");
        const code = linesWithOffsets(text).filter(({ line }) => line.startsWith("print("));
        if (code.length === 0) continue;
        withCode += 1;
        seen.push(...code.map(({ line }) => line));
        if (shows(ctx)) expectClosedCode(message, code, `chunk ${index}`, shows(ctx, "codeLanguage"));
      }
      expect(withCode, "chunks holding code").toBeGreaterThanOrEqual(2);
      expect(seen).toEqual(lines);
    },
  },
  {
    id: "text.markdown-image",
    checks:
      "A Markdown image with an https URL is lifted into an image message (bytes intact) and removed from the text.",
    gate: "markdownImages",
    applies: (c) => c.markdownImages || "markdownImages is false",
    exercises: ["markdownImages"],
    async run(ctx) {
      const media = await conformanceMedia();
      const result = await send(ctx, { text: `Look ![chart](${media.url("png")}) now` });
      expectDelivered(result);
      expectBytes(mediaMessages(result.observed)[0], "png");
      expect(visibleText(result.observed), "visible text").toBe("Look now");
    },
  },
];
