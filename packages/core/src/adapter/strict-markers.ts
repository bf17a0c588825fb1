/**
 * The emulator kit's decoder of marker markup (Slack mrkdwn, WhatsApp's formatting): the
 * visible text and its formatting spans, as the platform's client shows them. ```` ``` ````
 * blocks (may span lines) are monospace; outside them each line may start with a quote
 * prefix, and within one line `` `code` `` (nothing inside formatted), `*bold*`, `_italic_`
 * and `~strike~` pair strictly: a marker opens after a word boundary and before a non-space,
 * and closes after a non-space and before a boundary; a zero-width space next to a marker
 * breaks it. Zero-width spaces are not shown; quote lines that follow each other form one
 * quote. A dialect says how block content shows, what a quote prefix is, and which characters
 * of a line are literal (links, mentions, entities: never markers).
 */
import type { ObservedFormat, ObservedFormatKind } from "./observed.js";

/** Visible text and formatting spans of decoded marker markup. */
export interface DecodedMarkers {
  /** What the reader sees. */
  text: string;
  /** Formatting spans over `text`, in order of offset. */
  formatting: ObservedFormat[];
}

/** One character of the markup as decoded. */
export interface MarkerAtom {
  /** The character shown. */
  char: string;
  /** Inside code, a link, a mention or an entity: never a style marker. */
  literal: boolean;
  /** A marker that paired: not shown. */
  removed?: boolean;
}

/** A formatting span over atoms `from` (inclusive) to `to` (exclusive). */
export interface MarkerSpan {
  /** What the span shows. */
  kind: ObservedFormatKind;
  /** First atom. */
  from: number;
  /** Atom after the last. */
  to: number;
  /** A link's target. */
  url?: string;
}

/** What differs between marker dialects. */
export interface MarkerDialect {
  /** The text a ```` ``` ```` block shows for its raw content. */
  block(content: string): string;
  /** A quote prefix at the start of a line (`/^> ?/`). */
  quote: RegExp;
  /** Push the atoms of one line (after its quote prefix), with any link spans; markers stay non-literal atoms. */
  inline(line: string, atoms: MarkerAtom[], spans: MarkerSpan[]): void;
}

const MARKERS: Record<string, ObservedFormatKind> = { "*": "bold", _: "italic", "~": "strike" };
const ZWSP = "\u200b";

/** Decode stored marker markup in `dialect` into what the client shows. */
export function decodeStrictMarkers(raw: string, dialect: MarkerDialect): DecodedMarkers {
  const atoms: MarkerAtom[] = [];
  const spans: MarkerSpan[] = [];
  let last = 0;
  for (const match of raw.matchAll(/```([\s\S]*?)```/g)) {
    lines(raw.slice(last, match.index), dialect, atoms, spans);
    const from = atoms.length;
    for (const char of dialect.block(match[1] ?? "")) atoms.push({ char, literal: true });
    spans.push({ kind: "pre", from, to: atoms.length });
    last = match.index + match[0].length;
  }
  lines(raw.slice(last), dialect, atoms, spans);
  return assemble(atoms, spans);
}

/** Lines of a stretch outside blocks: the quote prefix, the dialect's atoms, then styles. */
function lines(text: string, dialect: MarkerDialect, atoms: MarkerAtom[], spans: MarkerSpan[]): void {
  text.split("\n").forEach((line, index) => {
    if (index > 0) atoms.push({ char: "\n", literal: true });
    const quote = dialect.quote.exec(line);
    const from = atoms.length;
    dialect.inline(quote ? line.slice(quote[0].length) : line, atoms, spans);
    styles(atoms, from, spans);
    if (quote) spans.push({ kind: "quote", from, to: atoms.length });
  });
}

const isSpace = (atom: MarkerAtom | undefined) => atom !== undefined && /\s/.test(atom.char);
const isBoundary = (atom: MarkerAtom | undefined) =>
  atom === undefined || atom.removed === true || atom.char === ZWSP || /[\s\p{P}\p{S}]/u.test(atom.char);
const isMarker = (atom: MarkerAtom | undefined, marker: string) =>
  atom !== undefined && !atom.literal && !atom.removed && atom.char === marker;

/** Pair style markers within one line: inline code first (nothing inside it is formatted). */
function styles(atoms: MarkerAtom[], start: number, spans: MarkerSpan[]): void {
  for (const [open, close] of pairs(atoms, start, "`")) {
    for (let i = open + 1; i < close; i++) (atoms[i] as MarkerAtom).literal = true;
    spans.push({ kind: "code", from: open + 1, to: close });
  }
  for (const marker of ["*", "_", "~"])
    for (const [open, close] of pairs(atoms, start, marker))
      spans.push({ kind: MARKERS[marker] as ObservedFormatKind, from: open + 1, to: close });
}

function pairs(atoms: MarkerAtom[], start: number, marker: string): Array<[number, number]> {
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
      (atoms[open] as MarkerAtom).removed = true;
      (atoms[close] as MarkerAtom).removed = true;
      found.push([open, close]);
      open = close;
      break;
    }
  }
  return found;
}

/** Visible text and spans in UTF-16 offsets, without removed markers and zero-width spaces. */
function assemble(atoms: MarkerAtom[], spans: MarkerSpan[]): DecodedMarkers {
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
