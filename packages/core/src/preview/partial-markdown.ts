/**
 * Markdown cut off while it is being written, made whole: an open code fence, inline code
 * span or emphasis at the end is closed the way its author is about to close it, so a live
 * preview shows `**bold` in bold instead of two stray asterisks, and a half-written code
 * block as code. The renderer's own output is always valid markup; this only decides what
 * the reader sees while the text grows.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Delimiters closed at the end of the last paragraph, longest first. */
const MARKERS = ["**", "__", "~~", "||", "*", "_"] as const;

/**
 * Close what the end of `markdown` leaves open: a fenced code block (its fence is repeated
 * on a new line), an inline code span, and emphasis, strong, strikethrough and spoiler
 * delimiters opened in the last paragraph (closed innermost first). A delimiter with
 * nothing after it yet is dropped. Text that is already complete is returned unchanged.
 */
export function closePartialMarkdown(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: string | undefined;
  let paragraphStart = 0;
  for (const [index, line] of lines.entries()) {
    const match = FENCE.exec(line);
    if (fence !== undefined) {
      const closing = match?.[1];
      if (
        closing !== undefined &&
        closing[0] === fence[0] &&
        closing.length >= fence.length &&
        line.trim() === closing
      )
        fence = undefined;
      paragraphStart = index + 1;
    } else if (match?.[1] !== undefined) {
      fence = match[1];
      paragraphStart = index + 1;
    } else if (line.trim() === "") paragraphStart = index + 1;
  }
  if (fence !== undefined) return `${markdown}${markdown.endsWith("\n") ? "" : "\n"}${fence}`;
  const head = lines.slice(0, paragraphStart).join("\n");
  const tail = lines.slice(paragraphStart).join("\n");
  return head + (paragraphStart > 0 && paragraphStart <= lines.length - 1 ? "\n" : "") + closeInline(tail);
}

/** Close the inline constructs a paragraph leaves open. */
function closeInline(paragraph: string): string {
  const open: string[] = [];
  let code = 0;
  let text = paragraph;
  for (let at = 0; at < text.length; ) {
    const char = text[at] as string;
    if (char === "\\") {
      at += 2;
      continue;
    }
    if (char === "`") {
      let run = 1;
      while (text[at + run] === "`") run += 1;
      if (code === 0) code = run;
      else if (code === run) code = 0;
      at += run;
      continue;
    }
    const marker = code === 0 ? MARKERS.find((candidate) => text.startsWith(candidate, at)) : undefined;
    if (marker === undefined) {
      at += 1;
      continue;
    }
    const before = text[at - 1] ?? " ";
    const after = text[at + marker.length];
    const top = open.lastIndexOf(marker);
    if (top >= 0 && !/\s/.test(before)) open.splice(top);
    else if (after === undefined) {
      // Just typed, nothing after it yet: not shown until its content comes.
      text = text.slice(0, at);
      break;
    } else if (!/\s/.test(after) && !(marker[0] === "_" && /[\p{L}\p{N}]/u.test(before))) open.push(marker);
    at += marker.length;
  }
  if (code > 0) text += "`".repeat(code);
  return text.replace(/\s+$/, "") + [...open].reverse().join("");
}
