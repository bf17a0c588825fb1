import { expect } from "vitest";
import { conformanceMedia } from "../media-server.js";
import type { ConformanceCase } from "../types.js";
import { expectBytes, expectDelivered, mediaMessages, normalize, send, visibleText } from "./helpers.js";

const always = (): true => true;

/** Visible text the special-characters case must get back exactly. */
const SPECIAL = "Math: 1 < 2 && 3 > 2; 5 * 3 = 15; a_b_c; AT&T <b>not bold</b> 😀👍🏽 שלום مرحبا 𝕏𠜎";

/** Text cases: plain, formatting, escaping, splitting. */
export const textCases: ConformanceCase[] = [
  {
    id: "text.plain",
    checks: "A plain sentence arrives as one text message with exactly that visible text.",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const result = await send(ctx, { text: "Hello from the Outbox conformance suite." });
      expectDelivered(result);
      expect(result.observed).toHaveLength(1);
      expect(result.observed[0]?.kind).toBe("text");
      expect(result.observed[0]?.text).toBe("Hello from the Outbox conformance suite.");
    },
  },
  {
    id: "text.formatting",
    checks:
      "Bold, italic, strikethrough, inline code and a link are rendered natively: no Markdown markup is visible.",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const result = await send(ctx, {
        text: "**bold** and _italic_ and ~~struck~~ and `code()` and [the docs](https://example.com/docs)",
      });
      expectDelivered(result);
      const text = visibleText(result.observed);
      for (const word of ["bold", "italic", "struck", "code()", "the docs"]) expect(text).toContain(word);
      for (const markup of ["**", "_italic_", "~~", "`", "]("]) expect(text).not.toContain(markup);
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
      const result = await send(ctx, { text: SPECIAL.replace("<b>", "\\<b>").replace("</b>", "\\</b>") });
      expectDelivered(result);
      expect(result.observed).toHaveLength(1);
      expect(normalize(result.observed[0]?.text ?? "")).toBe(SPECIAL);
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
      const { maxLength, chunkLength = maxLength } = ctx.capabilities.text;
      const words = Array.from({ length: Math.ceil((chunkLength * 2.5) / 7) }, (_, i) =>
        `w${i}`.padEnd(6, "x"),
      );
      const paragraphs = Array.from({ length: 5 }, (_, p) => words.filter((_, i) => i % 5 === p).join(" "));
      const result = await send(ctx, { text: paragraphs.join("\n\n") });
      expectDelivered(result);
      expect(result.observed.length).toBeGreaterThanOrEqual(2);
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
      "A code block longer than the limit is split between lines, each chunk a closed code block: no fence is visible, no line lost.",
    gate: "always",
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
      expect(result.observed.length).toBeGreaterThanOrEqual(2);
      const seen: string[] = [];
      for (const message of result.observed) {
        const text = message.text ?? "";
        expect(text.length).toBeLessThanOrEqual(maxLength);
        expect(text).not.toContain("```");
        seen.push(...text.split("\n").filter((line) => line.startsWith("print(")));
      }
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
      expect(visibleText(result.observed)).toBe("Look now");
    },
  },
];
