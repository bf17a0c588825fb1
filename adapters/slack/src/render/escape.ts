/**
 * Escaping for Slack mrkdwn. Slack decodes only `&amp; &lt; &gt;`; `& < >` are its control
 * characters. Its style markers (`* _ ~ \``) have no escape: a literal marker that could open
 * a span is followed by a zero-width space (U+200B), which Slack shows as nothing.
 */

/** Zero-width space: breaks a marker's pairing without a visible character. */
const ZWSP = "\u200b";

/** Slack's own tokens: user, channel and group mentions, special mentions, dates. */
export const SLACK_TOKEN =
  /<(?:@[UW][A-Z0-9]+|#C[A-Z0-9]+|!(?:here|channel|everyone)|!subteam\^[A-Z0-9]+|!date\^[^|>]+)(?:\|[^<>]*)?>/g;

/** Escape Slack's three control characters. */
export function escapeControl(text: string): string {
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
  if (!mentions) return neutralize(text);
  let out = "";
  let last = 0;
  for (const match of text.matchAll(SLACK_TOKEN)) {
    out += neutralize(text.slice(last, match.index));
    out += match[0];
    last = match.index + match[0].length;
  }
  return out + neutralize(text.slice(last));
}

function neutralize(text: string): string {
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
