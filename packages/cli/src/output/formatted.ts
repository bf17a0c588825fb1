/**
 * Show a message's text with the formatting the platform stored (`ObservedMessage.formatting`):
 * styled with terminal attributes in a TTY, marked up as Markdown-like text in plain output.
 */
import type { ObservedFormat, ObservedFormatKind } from "@outbox/core";
import type pc from "picocolors";

/** The colour functions of picocolors (enabled or not). */
export type Colors = ReturnType<typeof pc.createColors>;

/** How to make formatting visible: terminal styles, or markup characters. */
export type FormatStyle = { mode: "tty"; colors: Colors } | { mode: "plain" };

/** Plain-output markers per kind: opening and closing text. */
const MARKUP: Record<Exclude<ObservedFormatKind, "link" | "pre" | "quote">, string> = {
  bold: "**",
  italic: "_",
  strike: "~~",
  code: "`",
  spoiler: "||",
};

/** `text` with `spans` made visible; spans are clipped to the text. */
export function showFormatted(
  text: string,
  spans: readonly ObservedFormat[] | undefined,
  style: FormatStyle,
): string {
  const ordered = [...(spans ?? [])]
    .map((span) => ({ ...span, length: Math.min(span.length, text.length - span.offset) }))
    .filter((span) => span.offset >= 0 && span.length > 0)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  return style.mode === "tty" ? styled(text, ordered, style.colors) : markedUp(text, ordered);
}

/** Cut a text to its first `maxLines` lines, with its spans clipped; `hidden` counts the lines left out. */
export function firstLines(
  text: string,
  spans: readonly ObservedFormat[] | undefined,
  maxLines: number,
): { text: string; spans: ObservedFormat[]; hidden: number } {
  const lines = text.split("\n");
  if (lines.length <= maxLines) return { text, spans: [...(spans ?? [])], hidden: 0 };
  const cut = lines.slice(0, maxLines).join("\n").length;
  const clipped = (spans ?? [])
    .filter((span) => span.offset < cut)
    .map((span) => ({ ...span, length: Math.min(span.offset + span.length, cut) - span.offset }));
  return { text: text.slice(0, cut), spans: clipped, hidden: lines.length - maxLines };
}

// --- internal ---

/** Cut the text at every span boundary and style each piece with the spans covering it. */
function styled(text: string, spans: ObservedFormat[], c: Colors): string {
  const cuts = new Set<number>([0, text.length]);
  for (const span of spans) cuts.add(span.offset).add(span.offset + span.length);
  const points = [...cuts].sort((a, b) => a - b);
  let out = "";
  for (let i = 0; i + 1 < points.length; i++) {
    const from = points[i] as number;
    const to = points[i + 1] as number;
    const active = spans.filter((span) => span.offset <= from && span.offset + span.length >= to);
    out += active.reduce((piece, span) => ttyStyle(span, c)(piece), text.slice(from, to));
    for (const span of spans)
      if (
        span.kind === "link" &&
        span.url &&
        span.offset + span.length === to &&
        span.url !== text.slice(span.offset, to)
      )
        out += c.dim(` <${span.url}>`);
  }
  return out;
}

function ttyStyle(span: ObservedFormat, c: Colors): (s: string) => string {
  switch (span.kind) {
    case "bold":
      return c.bold;
    case "italic":
      return c.italic;
    case "strike":
      return c.strikethrough;
    case "code":
    case "pre":
      return c.cyan;
    case "link":
      return (s) => c.underline(c.blue(s));
    case "spoiler":
      return c.inverse;
    case "quote":
      return c.gray;
  }
}

/** Insert markers at span boundaries, the latest opened closed first; quoted lines get `> `. */
function markedUp(text: string, spans: ObservedFormat[]): string {
  const open: ObservedFormat[] = [];
  let out = "";
  for (let at = 0; at <= text.length; at++) {
    for (let i = open.length - 1; i >= 0; i--) {
      const span = open[i] as ObservedFormat;
      if (span.offset + span.length !== at) continue;
      out += closing(span);
      open.splice(i, 1);
    }
    for (const span of spans) {
      if (span.offset !== at) continue;
      out += opening(span);
      open.push(span);
    }
    if (at === text.length) break;
    const char = text[at] as string;
    out += char;
    if (char === "\n" && open.some((span) => span.kind === "quote")) out += "> ";
  }
  return out;
}

function opening(span: ObservedFormat): string {
  if (span.kind === "link") return "[";
  if (span.kind === "pre") return `\`\`\`${span.language ?? ""}\n`;
  if (span.kind === "quote") return "> ";
  return MARKUP[span.kind];
}

function closing(span: ObservedFormat): string {
  if (span.kind === "link") return `](${span.url ?? ""})`;
  if (span.kind === "pre") return "\n```";
  if (span.kind === "quote") return "";
  return MARKUP[span.kind];
}
