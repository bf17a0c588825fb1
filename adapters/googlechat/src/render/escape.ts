/**
 * Escaping for Google Chat's text markup ("Format messages"). Google documents no escape at
 * all: no entity, no backslash. So literal text is kept from formatting by zero-width spaces
 * (U+200B, shown as nothing): one after every `<`, so no `<users/…>` mention, `<users/all>`
 * or `<url|label>` link can come from the reply's text, and one after a style marker
 * (`* _ ~ \``) in opening position (a word boundary before it, a non-space after). A bare web
 * address is left whole (Chat links it itself; a zero-width space would cut the link).
 */
import { escapeAroundUrls } from "@outbox/core";

/** Zero-width space: breaks a token or a marker's pairing without a visible character. */
export const ZWSP = "\u200b";

/** Characters {@link literalText} may change. */
const NEUTRALIZED = /[<*_~`]/;

/** Whether a character ends a word for Chat's style markers (start/end, space, punctuation). */
function isBoundary(char: string | undefined): boolean {
  return char === undefined || char === ZWSP || /[\s\p{P}\p{S}]/u.test(char);
}

/** Literal text: nothing in it formats, mentions or links, except a bare address Chat links itself. */
export function escapeText(text: string): string {
  if (!text.includes(":")) return neutralize(text);
  return escapeAroundUrls(text, neutralize, (url) => url);
}

function neutralize(text: string): string {
  if (!NEUTRALIZED.test(text)) return text;
  // A lone character (alternating markers make hundreds of thousands): a marker has no non-space after it.
  if (text.length === 1) return text === "<" ? `<${ZWSP}` : text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === "<") out += `<${ZWSP}`;
    else if ("*_~`".includes(char) && isBoundary(text[i - 1]) && !/\s/.test(text[i + 1] ?? " "))
      out += char + ZWSP;
    else out += char;
  }
  return out;
}

/** Code content: nothing inside code formats, but a `<` still could open a token. */
export function escapeCode(code: string): string {
  return code.includes("<") ? code.replaceAll("<", `<${ZWSP}`) : code;
}

/** Block content: a run of three backticks would end the fence, so a zero-width space splits it. */
export function fenceSafe(code: string): string {
  return escapeCode(code).replace(/`(?=``)/g, `\`${ZWSP}`);
}

/** Characters {@link escapeUrl} encodes. */
const ENDS_LINK = /[|<>]/;
const URL_ESCAPES: Record<string, string> = { "|": "%7C", "<": "%3C", ">": "%3E" };

/** A URL as a link target: the characters that end `<url|label>` percent-encoded (most URLs hold none). */
export function escapeUrl(url: string): string {
  return ENDS_LINK.test(url) ? url.replace(/[|<>]/g, (char) => URL_ESCAPES[char] as string) : url;
}
