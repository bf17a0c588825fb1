/**
 * Escaping for Discord Markdown: every character Discord would read as markup is preceded
 * by a backslash (Discord shows `\x` as `x` for any ASCII punctuation `x`).
 */

/** Characters that are markup anywhere in a line: emphasis, strike, spoiler, code, masked links, mentions and timestamps (`<@…>`, `<t:…>`), quotes and headings. */
const INLINE = /[\\*_~`|[\]<>#]/g;
/** Markup only at the start of a line: list markers (`- `, `+ `, `1. `) and subtext (`-# `). */
const LINE_START = /(^|\n)([ \t]*)([-+]|\d+\.)(?=[ \t#]|$)/g;

/** Whether text holds any character either rule above could escape (most text holds none). */
const ESCAPABLE = /[\\*_~`|[\]<>#+.-]/;

/** A character a list marker needs (`-`, `+`, or the `.` after digits): without one, no line-start rule applies. */
const LINE_MARKER = /[-+.]/;
/** One character alone: escaped when either rule above would escape it (a lone `-` or `+` is a list marker). */
const ESCAPED_ALONE = /[\\*_~`|[\]<>#+-]/;

/** Escape text so Discord shows it exactly as written. */
export function escapeMarkdown(text: string): string {
  // Alternating markers make a reply of hundreds of thousands of one-character texts: two
  // regular-expression replaces each were half of planning it.
  if (text.length === 1) return ESCAPED_ALONE.test(text) ? `\\${text}` : text;
  if (!ESCAPABLE.test(text)) return text;
  const escaped = text.replace(INLINE, "\\$&");
  if (!LINE_MARKER.test(text)) return escaped;
  return escaped.replace(LINE_START, (_all, start: string, indent: string, marker: string) =>
    marker.endsWith(".") ? `${start}${indent}${marker.slice(0, -1)}\\.` : `${start}${indent}\\${marker}`,
  );
}

/**
 * A URL as the target of a masked link `[label](url)`: characters that would end the target
 * early (space, parentheses, angle brackets) are percent-encoded.
 */
export function linkTarget(url: string): string {
  return url.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** Code-block content: a run of three backticks would close the fence, so a zero-width space splits it. */
export function fenceSafe(code: string): string {
  return code.replace(/```/g, "``\u200b`");
}
