/**
 * The emulator kit's line decoder: the visible text of a message and its formatting spans →
 * the lines a chat client shows ({@link ObservedLine}). For platforms that show stored text
 * line by line (Telegram, Slack, Discord, the reference platform), where a list is lines
 * starting with a marker and a code block or quote is a span over whole lines.
 */
import type { ObservedFormat, ObservedLine } from "./observed.js";

/**
 * A list marker at the start of a line, after its indentation: a bullet (`• ◦ ▪ ‣ - * +`) or a
 * number with `.` or `)`, then a space.
 */
const MARKER = /^( *)(?:[•◦▪‣*+-]|(\d{1,9})[.)]) +(?=\S)/u;

/**
 * The lines of `text` as a client shows them: each line inside a `pre` span is `code`
 * (verbatim), inside a `quote` span `quote`, an empty line `blank`, a line starting with a
 * list marker an `item` (its depth from the indentation of the markers before it, its number
 * when ordered), every other line `text`. Line text is trimmed except in code.
 */
export function observedLines(text: string, formatting: readonly ObservedFormat[] = []): ObservedLine[] {
  const blocks = formatting.filter((span) => span.kind === "pre" || span.kind === "quote");
  const indents: number[] = [];
  const lines: ObservedLine[] = [];
  let offset = 0;
  for (const raw of text.split("\n")) {
    const start = offset;
    offset += raw.length + 1;
    const block = blocks.find((span) => span.offset <= start && start < span.offset + span.length);
    if (block?.kind === "pre") {
      lines.push({ kind: "code", text: raw.trimEnd() });
      continue;
    }
    const line = raw.trim();
    if (line === "") {
      lines.push({ kind: "blank", text: "" });
      continue;
    }
    if (block?.kind === "quote") {
      lines.push({ kind: "quote", text: line });
      continue;
    }
    const marker = MARKER.exec(raw);
    if (marker === null) {
      if (!raw.startsWith(" ")) indents.length = 0;
      lines.push({ kind: "text", text: line });
      continue;
    }
    const indent = (marker[1] ?? "").length;
    while (indents.length > 0 && (indents.at(-1) as number) > indent) indents.pop();
    if (indents.at(-1) !== indent) indents.push(indent);
    const item: ObservedLine = {
      kind: "item",
      text: raw.slice(marker[0].length).trim(),
      depth: indents.length,
    };
    if (marker[2] !== undefined) item.number = Number(marker[2]);
    lines.push(item);
  }
  return lines;
}
