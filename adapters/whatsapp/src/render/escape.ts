/**
 * Escaping for WhatsApp's markup. WhatsApp documents its markers ("How to format your
 * messages") and no escape character, entity or literal mode: a literal style marker
 * (`* _ ~ \``) in opening position (a word boundary before, a non-space after) is followed by a
 * zero-width space (U+200B), which the client shows as nothing and which keeps the marker from
 * pairing; a `>` starting a line (a quote) is preceded by one.
 */

import { escapeAroundUrls } from "@outbox/core";

/** Zero-width space: breaks a marker's pairing without a visible character. */
const ZWSP = "\u200b";

/** Whether a character ends a word for WhatsApp's style markers (start/end, space, punctuation). */
function isBoundary(char: string | undefined): boolean {
  return char === undefined || char === ZWSP || /[\s\p{P}\p{S}]/u.test(char);
}

/**
 * Escape literal text: style markers in opening position, and `>` starting a line. A bare
 * web address is left as written: the client links it whole, and a zero-width space in it
 * would cut the link.
 */
export function escapeText(text: string): string {
  // Most text holds no address (no `:`) and nothing to escape: it is kept as it is, without a scan per character.
  if (!text.includes(":")) return escapeMarkers(text);
  return escapeAroundUrls(text, escapeMarkers, (url) => url);
}

/** Characters {@link escapeMarkers} may change. */
const MARKERS = /[>*_~`]/;

function escapeMarkers(text: string): string {
  if (!MARKERS.test(text)) return text;
  // A lone character (alternating markers make hundreds of thousands): a marker has no
  // non-space after it, so it stays as it is; a `>` starts its line.
  if (text.length === 1) return text === ">" ? `${ZWSP}>` : text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    const lineStart = i === 0 || text[i - 1] === "\n";
    if (lineStart && char === ">") out += `${ZWSP}>`;
    else if ("*_~`".includes(char) && isBoundary(text[i - 1]) && !/\s/.test(text[i + 1] ?? " "))
      out += char + ZWSP;
    else out += char;
  }
  return out;
}

/**
 * Monospace-block content: WhatsApp ends the block at the next three backticks, so a
 * zero-width space splits every such run, and separates a backtick at either end from the fence.
 */
export function fenceSafe(code: string): string {
  const inner = code.replace(/`(?=``)/g, `\`${ZWSP}`);
  return `${inner.startsWith("`") ? ZWSP : ""}${inner}${inner.endsWith("`") ? ZWSP : ""}`;
}
