/**
 * WhatsApp markup as the WhatsApp client shows it: the visible text (markers, fences and
 * quote prefixes removed) and the formatting spans over it. Following WhatsApp's help page
 * "How to format your messages": ```` ```monospace``` ```` (may span lines), `` `inline code` ``,
 * `*bold*`, `_italic_`, `~strike~` within one line, `> ` quoting a line; list markers (`- `,
 * `* `, `1. `) stay visible. WhatsApp documents no pairing rules, so the emulator is strict
 * the way Slack's client is (core's emulator kit, `decodeStrictMarkers`): a marker opens
 * after a word boundary and before a non-space, and closes after a non-space and before a
 * boundary; a zero-width space inside a marker pair breaks it. URLs are linked by the client
 * and never styled inside. Zero-width spaces are dropped.
 */
import {
  type DecodedMarkers,
  decodeStrictMarkers,
  type MarkerAtom,
  type MarkerDialect,
  type MarkerSpan,
} from "@outbox/core/testing";

/** Decoded markup. */
export type DecodedMarkup = DecodedMarkers;

const URL = /https?:\/\/[^\s\u200b]+/g;

/** WhatsApp's dialect: blocks as typed, `> ` quotes, bare URLs linked and literal. */
const WHATSAPP: MarkerDialect = { block: (content) => content, quote: /^> ?/, inline: urls };

/** Decode a stored body or caption into what the WhatsApp client shows. */
export function decodeMarkup(raw: string): DecodedMarkup {
  return decodeStrictMarkers(raw, WHATSAPP);
}

function urls(line: string, atoms: MarkerAtom[], spans: MarkerSpan[]): void {
  let last = 0;
  const plain = (text: string) => {
    for (const char of text) atoms.push({ char, literal: false });
  };
  for (const match of line.matchAll(URL)) {
    const url = trimUrl(match[0]);
    plain(line.slice(last, match.index));
    const from = atoms.length;
    for (const char of url) atoms.push({ char, literal: true });
    spans.push({ kind: "link", from, to: atoms.length, url });
    last = match.index + url.length;
  }
  plain(line.slice(last));
}

/** Trailing punctuation is not part of a URL; a closing parenthesis only when the URL opened one. */
function trimUrl(url: string): string {
  let end = url.length;
  while (end > 0) {
    const char = url[end - 1] as string;
    if (".,;:!?'\"".includes(char)) end--;
    else if (char === ")" && !url.slice(0, end - 1).includes("(")) end--;
    else break;
  }
  return url.slice(0, end);
}
