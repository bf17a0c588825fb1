/**
 * Slack mrkdwn as a Slack client shows it: the visible text (markers, fences and quote
 * prefixes removed, `&amp; &lt; &gt;` decoded, links and mentions shown by their label) and
 * the formatting spans over it. Markers pair on one line only, opening after a word boundary
 * and closing before one; inside code nothing is formatted. Zero-width spaces are dropped.
 */
import type { ObservedFormat, ObservedFormatKind } from "@outbox/core";

/** Decoded mrkdwn. */
export interface DecodedMrkdwn {
  /** What the reader sees. */
  text: string;
  /** Formatting spans over `text`, by offset. */
  formatting: ObservedFormat[];
}

interface Atom {
  char: string;
  /** Part of a link label, a mention or an entity: never a style marker. */
  literal: boolean;
  removed?: boolean;
}

interface Span {
  kind: ObservedFormatKind;
  from: number;
  to: number;
  url?: string;
}

const MARKERS: Record<string, ObservedFormatKind> = { "*": "bold", _: "italic", "~": "strike", "`": "code" };
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };
const ZWSP = "\u200b";

/** Decode stored mrkdwn into what a Slack client shows. */
export function decodeMrkdwn(raw: string): DecodedMrkdwn {
  const atoms: Atom[] = [];
  const spans: Span[] = [];
  const fence = /```([\s\S]*?)```/g;
  let last = 0;
  for (const match of raw.matchAll(fence)) {
    lines(raw.slice(last, match.index), atoms, spans);
    const code = decodeEntities((match[1] ?? "").replace(/^\n/, "").replace(/\n$/, ""));
    const from = atoms.length;
    for (const char of code) atoms.push({ char, literal: true });
    spans.push({ kind: "pre", from, to: atoms.length });
    last = match.index + match[0].length;
  }
  lines(raw.slice(last), atoms, spans);
  return assemble(atoms, spans);
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** Lines of a stretch outside code blocks: quotes, then tokens and styles. */
function lines(text: string, atoms: Atom[], spans: Span[]): void {
  text.split("\n").forEach((line, index) => {
    if (index > 0) atoms.push({ char: "\n", literal: true });
    const quote = /^(?:&gt;|>) ?/.exec(line);
    const from = atoms.length;
    const body = quote ? line.slice(quote[0].length) : line;
    const start = atoms.length;
    tokens(body, atoms, spans);
    styles(atoms, start, spans);
    if (quote) spans.push({ kind: "quote", from, to: atoms.length });
  });
}

/** `<…>` links and mentions, entities, and plain characters. */
function tokens(line: string, atoms: Atom[], spans: Span[]): void {
  const token = /<([^<>]*)>|&(?:amp|lt|gt);/g;
  let last = 0;
  const plain = (text: string) => {
    for (const char of text) atoms.push({ char, literal: false });
  };
  for (const match of line.matchAll(token)) {
    plain(line.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[1] === undefined) {
      atoms.push({ char: ENTITIES[match[0]] ?? match[0], literal: true });
      continue;
    }
    const [target = "", label] = match[1].split(/\|(.*)/s);
    const from = atoms.length;
    for (const char of decodeEntities(label ?? mentionLabel(target))) atoms.push({ char, literal: true });
    if (/^(https?|mailto):/i.test(target))
      spans.push({ kind: "link", from, to: atoms.length, url: decodeEntities(target) });
  }
  plain(line.slice(last));
}

function mentionLabel(target: string): string {
  if (target.startsWith("!subteam^")) return `@${target.slice(9)}`;
  if (target.startsWith("!")) return `@${target.slice(1).split("^")[0]}`;
  return target;
}

const isSpace = (atom: Atom | undefined) => atom !== undefined && /\s/.test(atom.char);
const isBoundary = (atom: Atom | undefined) =>
  atom === undefined || atom.removed === true || atom.char === ZWSP || /[\s\p{P}\p{S}]/u.test(atom.char);
const isMarker = (atom: Atom | undefined, marker: string) =>
  atom !== undefined && !atom.literal && !atom.removed && atom.char === marker;

/** Pair style markers within one line: inline code first (nothing inside it is formatted). */
function styles(atoms: Atom[], start: number, spans: Span[]): void {
  const code = pairs(atoms, start, "`");
  for (const [open, close] of code) {
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
function assemble(atoms: Atom[], spans: Span[]): DecodedMrkdwn {
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
