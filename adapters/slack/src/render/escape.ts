/**
 * Escaping for Slack mrkdwn. Slack documents one escape ("Formatting text for app surfaces",
 * "Escaping text"): its control characters `& < >` written `&amp; &lt; &gt;`. Its style
 * markers (`* _ ~ \``) have none (no backslash escape, no entity): a literal marker that could
 * open a span is followed by a zero-width space (U+200B), which Slack shows as nothing. A bare
 * web address is written in Slack's link syntax `<url>`, where markers are literal.
 */

import { escapeAroundUrls } from "@outbox/core";

/** Zero-width space: breaks a marker's pairing without a visible character. */
const ZWSP = "\u200b";

/** Slack's own tokens: user, channel and group mentions, special mentions, dates. */
export const SLACK_TOKEN =
  /<(?:@[UW][A-Z0-9]+|#C[A-Z0-9]+|!(?:here|channel|everyone)|!subteam\^[A-Z0-9]+|!date\^[^|>]+)(?:\|[^<>]*)?>/g;

/** Slack's three control characters. */
const CONTROL = /[&<>]/;

/** Escape Slack's three control characters. */
export function escapeControl(text: string): string {
  // Most text (a code span of a few letters, say) holds none: three replaces that find nothing cost more than a test.
  if (!CONTROL.test(text)) return text;
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Whether a character ends a word for Slack's style markers (start/end, space, punctuation). */
function isBoundary(char: string | undefined): boolean {
  return char === undefined || char === ZWSP || /[\s\p{P}\p{S}]/u.test(char);
}

/**
 * Escape literal text: control characters, a `>` starting a line (Slack would quote it) and
 * style markers in opening position (boundary before, a non-space after).
 */
export function escapeText(text: string, mentions: boolean): string {
  if (!mentions) return literal(text);
  let out = "";
  let last = 0;
  for (const match of text.matchAll(SLACK_TOKEN)) {
    out += literal(text.slice(last, match.index));
    out += match[0];
    last = match.index + match[0].length;
  }
  return out + literal(text.slice(last));
}

/**
 * Literal text; a bare web address becomes Slack's own link syntax `<url>`, inside which no
 * marker formats (a zero-width space in it would cut the link Slack makes of it).
 */
function literal(text: string): string {
  // Most text holds no address (no `:`) and nothing to escape: it is kept as it is, without a scan per character.
  if (!text.includes(":")) return neutralize(text);
  return escapeAroundUrls(text, neutralize, (url) => `<${escapeUrl(url)}>`);
}

/** Characters {@link neutralize} may change. */
const NEUTRALIZED = /[&<>*_~`]/;

function neutralize(text: string): string {
  if (!NEUTRALIZED.test(text)) return text;
  // A lone character (alternating markers make hundreds of thousands): a marker has no
  // non-space after it, so it stays as it is; a `>` starts its line.
  if (text.length === 1)
    return text === "&" ? "&amp;" : text === "<" ? "&lt;" : text === ">" ? `${ZWSP}&gt;` : text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === "&") out += "&amp;";
    else if (char === "<") out += "&lt;";
    else if (char === ">") out += i === 0 || text[i - 1] === "\n" ? `${ZWSP}&gt;` : "&gt;";
    else if ("*_~`".includes(char) && isBoundary(text[i - 1]) && !/[\s]/.test(text[i + 1] ?? " "))
      out += char + ZWSP;
    else out += char;
  }
  return out;
}

/** A URL as a Slack link target: `|` and the control characters percent-encoded. */
export function escapeUrl(url: string): string {
  return url.replace(/\|/g, "%7C").replace(/</g, "%3C").replace(/>/g, "%3E").replace(/&/g, "&amp;");
}

/**
 * Code-block content: Slack ends a fence at the first run of three backticks, even inside
 * the block, so a zero-width space splits every such run (the reader still sees the backticks).
 */
export function fenceSafe(code: string): string {
  return code.replace(/`(?=``)/g, `\`${ZWSP}`);
}
