/**
 * WhatsApp markup as the WhatsApp client shows it: the visible text (markers, fences and
 * quote prefixes removed) and the formatting spans over it. Following WhatsApp's help page
 * "How to format your messages": ```` ```monospace``` ```` (may span lines), `` `inline code` ``,
 * `*bold*`, `_italic_`, `~strike~` within one line, `> ` quoting a line; list markers (`- `,
 * `* `, `1. `) stay visible. WhatsApp documents no pairing rules, so the emulator is strict
 * the way Slack's client is: a marker opens after a word boundary and before a non-space, and
 * closes after a non-space and before a boundary; a zero-width space inside a marker pair
 * breaks it. URLs are linked by the client and never styled inside. Zero-width spaces are dropped.
 */
import type { ObservedFormat, ObservedFormatKind } from "@outbox/core";

/** Decoded markup. */
export interface DecodedMarkup {
  /** What the reader sees. */
  text: string;
  /** Formatting spans over `text`, by offset. */
  formatting: ObservedFormat[];
}

interface Atom {
  char: string;
  /** Inside code or a URL: never a style marker. */
  literal: boolean;
  removed?: boolean;
}

interface Span {
  kind: ObservedFormatKind;
  from: number;
  to: number;
  url?: string;
}

const MARKERS: Record<string, ObservedFormatKind> = { "*": "bold", _: "italic", "~": "strike" };
const ZWSP = "\u200b";
const URL = /https?:\/\/[^\s\u200b]+/g;

/** Decode a stored body or caption into what the WhatsApp client shows. */
export function decodeMarkup(raw: string): DecodedMarkup {
  const atoms: Atom[] = [];
  const spans: Span[] = [];
  let last = 0;
  for (const match of raw.matchAll(/```([\s\S]*?)```/g)) {
    lines(raw.slice(last, match.index), atoms, spans);
    const from = atoms.length;
    for (const char of match[1] ?? "") atoms.push({ char, literal: true });
    spans.push({ kind: "pre", from, to: atoms.length });
    last = match.index + match[0].length;
  }
  lines(raw.slice(last), atoms, spans);
  return assemble(atoms, spans);
}

/** Lines of a stretch outside monospace blocks: quotes, URLs, then styles. */
function lines(text: string, atoms: Atom[], spans: Span[]): void {
  text.split("\n").forEach((line, index) => {
    if (index > 0) atoms.push({ char: "\n", literal: true });
    const quote = /^> ?/.exec(line);
    const from = atoms.length;
    const body = quote ? line.slice(quote[0].length) : line;
    urls(body, atoms, spans);
    styles(atoms, from, spans);
    if (quote) spans.push({ kind: "quote", from, to: atoms.length });
  });
}

function urls(line: string, atoms: Atom[], spans: Span[]): void {
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

const isSpace = (atom: Atom | undefined) => atom !== undefined && /\s/.test(atom.char);
const isBoundary = (atom: Atom | undefined) =>
  atom === undefined || atom.removed === true || atom.char === ZWSP || /[\s\p{P}\p{S}]/u.test(atom.char);
const isMarker = (atom: Atom | undefined, marker: string) =>
  atom !== undefined && !atom.literal && !atom.removed && atom.char === marker;

/** Pair style markers within one line: inline code first (nothing inside it is formatted). */
function styles(atoms: Atom[], start: number, spans: Span[]): void {
  for (const [open, close] of pairs(atoms, start, "`")) {
    for (let i = open + 1; i < close; i++) (atoms[i] as Atom).literal = true;
    spans.push({ kind: "code", from: open + 1, to: close });
  }
  for (const marker of ["*", "_", "~"])
    for (const [open, close] of pairs(atoms, start, marker))
      spans.push({ kind: MARKERS[marker] as ObservedFormatKind, from: open + 1, to: close });
}

function pairs(atoms: Atom[], start: number, marker: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (let open = start; open < atoms.length; open++) {
    const next = atoms[open + 1];
    if (!isMarker(atoms[open], marker)) continue;
    if (open > start && !isBoundary(atoms[open - 1])) continue;
    if (next === undefined || isSpace(next) || next.char === ZWSP) continue;
    for (let close = open + 2; close < atoms.length; close++) {
      if (!isMarker(atoms[close], marker)) continue;
      const before = atoms[close - 1];
      if (isSpace(before) || before?.char === ZWSP || !isBoundary(atoms[close + 1])) continue;
      (atoms[open] as Atom).removed = true;
      (atoms[close] as Atom).removed = true;
      found.push([open, close]);
      open = close;
      break;
    }
  }
  return found;
}

/** Visible text and spans in UTF-16 offsets, without removed markers and zero-width spaces. */
function assemble(atoms: Atom[], spans: Span[]): DecodedMarkup {
  const at: number[] = [];
  let text = "";
  for (const atom of atoms) {
    at.push(text.length);
    if (!atom.removed && atom.char !== ZWSP) text += atom.char;
  }
  at.push(text.length);
  const formatting = spans
    .map((span): ObservedFormat => {
      const offset = at[span.from] ?? 0;
      const format: ObservedFormat = { kind: span.kind, offset, length: (at[span.to] ?? offset) - offset };
      if (span.url !== undefined) format.url = span.url;
      return format;
    })
    .filter((format) => format.length > 0)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text, formatting: mergeQuotes(formatting) };
}

/** Quote lines that follow each other form one quote. */
function mergeQuotes(formatting: ObservedFormat[]): ObservedFormat[] {
  const merged: ObservedFormat[] = [];
  let quote: ObservedFormat | undefined;
  for (const format of formatting) {
    if (format.kind === "quote" && quote !== undefined && format.offset === quote.offset + quote.length + 1) {
      quote.length = format.offset + format.length - quote.offset;
      continue;
    }
    if (format.kind === "quote") quote = format;
    merged.push(format);
  }
  return merged;
}
