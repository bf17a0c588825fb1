/**
 * Line-structure cases: what a reader sees line by line (paragraphs, hard breaks, list items
 * with their nesting and numbers, quotes, code blocks, a fence inside a longer fence), read
 * from `ObservedMessage.lines` or, when the emulator leaves it out, from the visible text
 * with `observedLines`.
 */
import type { ObservedLine } from "@outbox/core";
import { observedLines } from "@outbox/core/testing";
import { expect } from "vitest";
import type { CaseContext, CaseDefinition, ObservedMessage } from "../types.js";
import { shows, spannedText, spansOf } from "./formatting.js";
import { expectDelivered, send } from "./helpers.js";

const always = (): true => true;

/** The lines of a message as its client shows them. */
export function linesOf(message: ObservedMessage | undefined): ObservedLine[] {
  return message?.lines ?? observedLines(spannedText(message), message?.formatting);
}

/**
 * Lines as comparable strings: `• item` / `3. item` indented two spaces per nesting level,
 * `> quote`, `code: line`, `""` for a gap (runs of gaps count once, none at either end),
 * everything else its text. Zero-width spaces, which no reader sees, are left out.
 */
export function outline(lines: readonly ObservedLine[], ctx: CaseContext): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const text = line.text.replace(/\u200b/g, "");
    if (line.kind === "blank" || (line.kind !== "code" && text.trim() === "")) {
      if (out.length > 0 && out.at(-1) !== "") out.push("");
      continue;
    }
    out.push(entry(line.kind, text, line, ctx));
  }
  if (out.at(-1) === "") out.pop();
  return out;
}

function entry(kind: ObservedLine["kind"], text: string, line: ObservedLine, ctx: CaseContext): string {
  switch (kind) {
    case "item":
      return `${"  ".repeat(Math.max(0, (line.depth ?? 1) - 1))}${line.number === undefined ? "•" : `${line.number}.`} ${text}`;
    case "quote":
      return shows(ctx, "quote") ? `> ${text}` : text;
    case "code":
      return shows(ctx) ? `code: ${text}` : text;
    default:
      return text;
  }
}

/** Send a short text that must arrive as one text message; its outline. */
async function sendOutline(
  ctx: CaseContext,
  text: string,
): Promise<{ message: ObservedMessage | undefined; lines: string[] }> {
  const result = await send(ctx, { text });
  expectDelivered(result);
  expect(result.observed, "messages delivered").toHaveLength(1);
  const message = result.observed[0];
  return { message, lines: outline(linesOf(message), ctx) };
}

/** The expected outline, with `>` and `code:` dropped where the platform shows no quotes or code blocks. */
function expected(ctx: CaseContext, lines: string[]): string[] {
  return lines.map((line) =>
    line.startsWith("> ") && !shows(ctx, "quote")
      ? line.slice(2)
      : line.startsWith("code: ") && !shows(ctx)
        ? line.slice(6)
        : line,
  );
}

/** The lines are exactly these; the failure message shows both outlines in full. */
function expectLines(actual: string[], wanted: string[]): void {
  const [got, want] = [JSON.stringify(actual), JSON.stringify(wanted)];
  if (got !== want) expect.fail(`line structure (as the client shows it): got ${got}, expected ${want}`);
}

/** Line-structure cases. */
export const lineCases: CaseDefinition[] = [
  {
    id: "text.lines",
    checks:
      "Line breaks and paragraphs survive: each line of a paragraph (a single newline or a Markdown hard break) is its own line, and paragraphs are separated by a gap.",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const { lines } = await sendOutline(
        ctx,
        "Roses are red,\nviolets are blue.\n\nSecond paragraph:\nline two\\\nline three",
      );
      expectLines(lines, [
        "Roses are red,",
        "violets are blue.",
        "",
        "Second paragraph:",
        "line two",
        "line three",
      ]);
    },
  },
  {
    id: "text.lists",
    checks:
      "Bullet and numbered lists show one item per line, nested items one level deeper, and each numbered item its number (a list starting at 3 counts from 3).",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const { lines } = await sendOutline(
        ctx,
        "Shopping:\n\n- apples\n- pears\n  - green ones\n  - red ones\n- plums\n\nSteps:\n\n3. wash\n4. cut\n   1. small\n   2. smaller\n5. serve",
      );
      expectLines(lines, [
        "Shopping:",
        "",
        "• apples",
        "• pears",
        "  • green ones",
        "  • red ones",
        "• plums",
        "",
        "Steps:",
        "",
        "3. wash",
        "4. cut",
        "  1. small",
        "  2. smaller",
        "5. serve",
      ]);
    },
  },
  {
    id: "text.blocks",
    checks:
      "A heading is a line of its own (a heading, or bold where the platform maps headings to bold), a quote keeps its lines, a code block its lines and indentation, each block apart from the next.",
    gate: "always (quote and code lines plain when `formatGaps.quote` or `text.format` is `plain`)",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const { message, lines } = await sendOutline(
        ctx,
        "# Title\n\nIntro.\n\n> quoted one\n> quoted two\n\n```\nfirst()\n  second()\n```\n\nEnd.",
      );
      expectLines(
        lines,
        expected(ctx, [
          "Title",
          "",
          "Intro.",
          "",
          "> quoted one",
          "> quoted two",
          "",
          "code: first()",
          "code:   second()",
          "",
          "End.",
        ]),
      );
      if (!shows(ctx) || linesOf(message)[0]?.kind === "heading") return;
      const text = spannedText(message);
      const bold = spansOf(message, "bold").map((span) => text.slice(span.offset, span.offset + span.length));
      expect(bold, "the heading (a heading line, or bold)").toContain("Title");
    },
  },
  {
    id: "text.nested-fence",
    checks:
      "A code block fenced with four backticks that shows a three-backtick fence inside keeps every line, the inner fences included, in one code block.",
    gate: "always (plain lines when `text.format` is `plain`)",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const { lines } = await sendOutline(ctx, "````md\nHow to fence:\n```js\nlet a = 1;\n```\n````");
      expectLines(
        lines,
        expected(ctx, ["code: How to fence:", "code: ```js", "code: let a = 1;", "code: ```"]),
      );
    },
  },
];
