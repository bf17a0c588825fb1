import type { Token } from "markdown-it";
import type { InlineCode, PhrasingContent } from "mdast";
import { type CodeSpanRange, codeSpanText } from "./code-span.js";
import { CAN_CLOSE, CAN_OPEN, type DelimiterUtils, delimiterRun } from "./delimiter-scan.js";
import { InlineSource } from "./inline-to-mdast.js";
import { PhrasingBuilder } from "./phrasing-builder.js";
import type { PhrasingNodes } from "./phrasing-nodes.js";
import type { SourceLines } from "./source-lines.js";

/**
 * A character that starts inline syntax other than emphasis, code spans and line breaks:
 * escapes, links and images, raw HTML and autolinks, entities, strikethrough, spoilers.
 * Inline content without one is parsed by {@link simpleInline}; markdown-it parses the rest.
 */
const OTHER_SYNTAX = /[\\[\]<&~|]/;

/** Whether {@link simpleInline} parses `content` (it holds no inline syntax but emphasis, code and breaks). */
export function isSimpleInline(content: string): boolean {
  return !OTHER_SYNTAX.test(content);
}

/** What each piece of the content is. */
enum Kind {
  /** Text: the content from `from` to `to`. */
  Text,
  /** One emphasis marker character at `from`, left as text when unmatched. */
  Marker,
  /** A code span from `from` (its opening backticks) to `to` (past its closing ones). */
  Code,
  SoftBreak,
  HardBreak,
  /** A marker that became part of a `strong` pair's opener or closer (no text). */
  Consumed,
  /** A link's start: its destination from `from` to `to`. */
  LinkOpen,
  LinkClose,
  EmphasisOpen,
  EmphasisClose,
  StrongOpen,
  StrongClose,
}

const STAR = 0x2a;
const UNDERSCORE = 0x5f;
const BACKTICK = 0x60;
const BANG = 0x21;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;

/**
 * The pieces of the content in order, in typed arrays: a million markers cost a few
 * megabytes that the collector never walks, where markdown-it allocates a token and a
 * delimiter object for each (a third of a gigabyte for 1 MB, collected at length).
 */
class Pieces {
  readonly kind: Uint8Array;
  readonly from: Int32Array;
  readonly to: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.kind = new Uint8Array(capacity);
    this.from = new Int32Array(capacity);
    this.to = new Int32Array(capacity);
  }

  push(kind: Kind, from: number, to: number): number {
    this.kind[this.length] = kind;
    this.from[this.length] = from;
    this.to[this.length] = to;
    return this.length++;
  }
}

/** Emphasis delimiters (one per marker character), as markdown-it's `state.delimiters` holds them. */
class Delimiters {
  readonly marker: Uint8Array;
  /** Length of the run the marker belongs to. */
  readonly run: Int32Array;
  /** Index of its piece. */
  readonly piece: Int32Array;
  /** Index of the closer it was matched with, -1 before. */
  readonly end: Int32Array;
  readonly open: Uint8Array;
  readonly close: Uint8Array;
  /** {@link pairDelimiters}' working space. */
  readonly jumps: Int32Array;
  readonly bottom = new Int32Array(12);
  length = 0;

  constructor(capacity: number) {
    this.marker = new Uint8Array(capacity);
    this.run = new Int32Array(capacity);
    this.piece = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.open = new Uint8Array(capacity);
    this.close = new Uint8Array(capacity);
    this.jumps = new Int32Array(capacity);
  }

  push(marker: number, run: number, piece: number, open: boolean, close: boolean): void {
    const at = this.length++;
    this.marker[at] = marker;
    this.run[at] = run;
    this.piece[at] = piece;
    this.end[at] = -1;
    this.open[at] = open ? 1 : 0;
    this.close[at] = close ? 1 : 0;
  }
}

/** The arrays a scan works in. */
interface Workspace {
  pieces: Pieces;
  delimiters: Delimiters;
  /** A link's own delimiters (links do not nest). */
  labels: Delimiters;
}

/** Capacity of the arrays kept from one scan to the next (about 50 kB): a reply of a page or two. */
const SPARE_CAPACITY = 1024;

/**
 * The arrays of an earlier scan small enough to keep, reused by the next one that fits (most
 * replies: their scan then allocates no array). Parsing is synchronous, so one scan at a
 * time uses them; a bigger text gets arrays of its own, left to the collector.
 */
let spare: Workspace | undefined;

/** Arrays for `pieces` pieces and `markers` markers, as many of them in link text as `labelled`. */
function workspace(pieces: number, markers: number, labelled: number): Workspace {
  if (spare !== undefined && pieces <= spare.pieces.kind.length && markers <= spare.delimiters.marker.length)
    return spare;
  if (pieces > SPARE_CAPACITY || markers > SPARE_CAPACITY)
    return {
      pieces: new Pieces(pieces),
      delimiters: new Delimiters(markers),
      labels: new Delimiters(labelled),
    };
  spare = {
    pieces: new Pieces(SPARE_CAPACITY),
    delimiters: new Delimiters(SPARE_CAPACITY),
    labels: new Delimiters(SPARE_CAPACITY),
  };
  return spare;
}

/**
 * What each ASCII character is to {@link scan}: a marker, a character that starts another
 * piece, a `[` (two pieces), or, for {@link SimplePhrasing}, syntax it leaves to
 * markdown-it (escapes, raw HTML and autolinks, entities, strikethrough, spoilers) or a
 * character markdown-it rewrites or trims (carriage return, NUL, whitespace but the space
 * and the line feed).
 */
enum Char {
  Plain,
  Marker,
  Piece,
  Bracket,
  Refused,
}
const CHARS = new Uint8Array(0x80);
CHARS[STAR] = Char.Marker;
CHARS[UNDERSCORE] = Char.Marker;
CHARS[BACKTICK] = Char.Piece;
CHARS[0x0a] = Char.Piece;
CHARS[OPEN_BRACKET] = Char.Bracket;
for (const ch of "\\<&~|\r\0\t\v\f") CHARS[ch.charCodeAt(0)] = Char.Refused;

/** Whitespace past ASCII (JavaScript's `\s`), which markdown-it's trimming reads. */
function isWideBlank(ch: number): boolean {
  return (
    ch === 0xa0 ||
    ch === 0x1680 ||
    (ch >= 0x2000 && ch <= 0x200a) ||
    ch === 0x2028 ||
    ch === 0x2029 ||
    ch === 0x202f ||
    ch === 0x205f ||
    ch === 0x3000 ||
    ch === 0xfeff
  );
}

/**
 * The pieces of `text` from `from` to `to`, their emphasis paired, or `undefined` when they
 * hold a `[` that is no plain link (see {@link tokenize}) or, with `refuse`, a character
 * {@link CHARS} marks refused. The arrays are sized for the range: every piece but text
 * starts at a marker, a backtick, a line feed or a link's `[` (a link is two pieces and ends
 * the text in it), and text lies between them.
 */
function scan(
  text: string,
  from: number,
  to: number,
  utils: DelimiterUtils,
  refuse: boolean,
): Pieces | undefined {
  let markers = 0;
  let others = 0;
  let brackets = 0;
  for (let i = from; i < to; i += 1) {
    const ch = text.charCodeAt(i);
    const kind = ch < 0x80 ? (CHARS[ch] as Char) : refuse && isWideBlank(ch) ? Char.Refused : Char.Plain;
    if (kind === Char.Plain) continue;
    if (kind === Char.Marker) markers += 1;
    else if (kind === Char.Piece) others += 1;
    else if (kind === Char.Bracket) brackets += 1;
    else if (refuse) return undefined;
  }
  // Markers in link text are no more than all markers, and there are none without a `[`.
  const { pieces, delimiters, labels } = workspace(
    Math.min(to - from, 2 * (markers + others + 2 * brackets) + 1),
    markers,
    brackets === 0 ? 0 : markers,
  );
  pieces.length = 0;
  delimiters.length = 0;
  if (!tokenize(text, from, to, pieces, delimiters, utils, labels)) return undefined;
  pairDelimiters(delimiters);
  markEmphasis(pieces, delimiters);
  return pieces;
}

/**
 * Parse inline content that {@link isSimpleInline} accepts straight into mdast phrasing
 * content: the tree markdown-it's inline rules (text, newline, backticks, emphasis, then
 * pairing the delimiters and turning pairs into emphasis) and the token converter would
 * build, step for step, without a token per piece, made by `nodes`. `inline` is the
 * paragraph's or heading's `inline` token; with `lines`, code spans get their source position.
 */
export function simpleInline(
  inline: Token,
  utils: DelimiterUtils,
  lines: SourceLines | undefined,
  text: string,
  nodes?: PhrasingNodes,
): PhrasingContent[] {
  const content = inline.content;
  // Content that isSimpleInline accepts holds no `[`, so it always scans.
  const pieces = scan(content, 0, content.length, utils, false) as Pieces;
  let source: InlineSource | undefined;
  return build(
    content,
    pieces,
    nodes,
    lines === undefined
      ? undefined
      : (range) => {
          source ??= new InlineSource(inline, lines, text);
          return source.position(range);
        },
  );
}

/**
 * Parses paragraphs of one text whose inline content is text, emphasis, code spans, breaks
 * and plain links (`[text](destination)`, the destination without blanks, parentheses or a
 * title) into the phrasing content markdown-it and the token converter build, without
 * source positions, made by `nodes`.
 */
export class SimplePhrasing {
  constructor(
    private readonly text: string,
    private readonly utils: DelimiterUtils,
    private readonly nodes: PhrasingNodes,
  ) {}

  /**
   * The phrasing content of the paragraph whose (trimmed) content runs from `from` to `to`,
   * or `undefined` when it holds other syntax: a `[` that starts anything else (an image, a
   * link of another form, a bracket that is text), or a character {@link CHARS} refuses.
   * markdown-it then parses the text.
   */
  parse(from: number, to: number): PhrasingContent[] | undefined {
    const pieces = scan(this.text, from, to, this.utils, true);
    return pieces === undefined ? undefined : build(this.text, pieces, this.nodes, undefined);
  }
}

/** The phrasing content of scanned pieces; with `position`, code spans get their source position. */
function build(
  content: string,
  pieces: Pieces,
  nodes: PhrasingNodes | undefined,
  position: ((range: CodeSpanRange) => InlineCode["position"]) | undefined,
): PhrasingContent[] {
  const built = new PhrasingBuilder(nodes);
  const { kind, from, to } = pieces;
  for (let index = 0; index < pieces.length; index += 1) {
    const start = from[index] as number;
    const end = to[index] as number;
    switch (kind[index] as Kind) {
      case Kind.Text:
        built.text(content.slice(start, end));
        break;
      case Kind.Marker:
        built.text(content.charAt(start));
        break;
      case Kind.Code: {
        const fence = backticksAt(content, start);
        const value = codeSpanText(content.slice(start + fence, end - fence));
        built.code(value, position?.({ start, end }));
        break;
      }
      case Kind.SoftBreak:
        built.softBreak();
        break;
      case Kind.HardBreak:
        built.hardBreak();
        break;
      case Kind.EmphasisOpen:
        built.open({ type: "emphasis", children: [] });
        break;
      case Kind.StrongOpen:
        built.open({ type: "strong", children: [] });
        break;
      case Kind.LinkOpen:
        built.open({ type: "link", url: content.slice(start, end), title: null, children: [] });
        break;
      case Kind.EmphasisClose:
      case Kind.StrongClose:
      case Kind.LinkClose:
        built.close();
        break;
    }
  }
  return built.finish();
}

/** The length of the run of backticks at `at`. */
function backticksAt(content: string, at: number): number {
  let end = at;
  while (content.charCodeAt(end) === BACKTICK) end += 1;
  return end - at;
}

/**
 * markdown-it's inline tokenizer on simple content: text up to the next `\n`, backtick or
 * marker; at `\n` a soft break, or a hard break after two spaces (the spaces before it
 * dropped, and the blanks starting the next line); a code span where a run of backticks
 * finds a run as long (markdown-it's cache of closer positions keeps that linear); a run
 * of markers one piece and one delimiter per character. Pending text is the range since
 * the last piece.
 *
 * Content runs from `from` to `max` (markdown-it's `posMax`: a delimiter run reads a space
 * past it). At a `[`, a plain link (see {@link plainLinkLabel}): its text is tokenized
 * into `labels`, delimiters of its own, paired apart as markdown-it pairs a link's
 * content; a `[` no `)` follows (a link cut off at the end) is text; any other `[`
 * answers false, and so does `![`.
 */
function tokenize(
  content: string,
  from: number,
  max: number,
  pieces: Pieces,
  delimiters: Delimiters,
  utils: DelimiterUtils,
  labels: Delimiters,
): boolean {
  /** Where the pending text starts. */
  let pending = from;
  /** The last start of a closing run of each length seen while looking for a code span's end. */
  let closers: Map<number, number> | undefined;
  let scanned = false;
  /** Where the content's last `)` is, found at the first `[` that starts no plain link. */
  let lastParen: number | undefined;
  let pos = from;
  while (pos < max) {
    const ch = content.charCodeAt(pos);
    if (ch === 0x0a) {
      if (pos > pending && content.charCodeAt(pos - 1) === 0x20) {
        if (pos - 1 > pending && content.charCodeAt(pos - 2) === 0x20) {
          let spaces = pos - 2;
          while (spaces > pending && content.charCodeAt(spaces - 1) === 0x20) spaces -= 1;
          pushText(pieces, pending, spaces);
          pieces.push(Kind.HardBreak, pos, pos);
        } else {
          pushText(pieces, pending, pos - 1);
          pieces.push(Kind.SoftBreak, pos, pos);
        }
      } else {
        pushText(pieces, pending, pos);
        pieces.push(Kind.SoftBreak, pos, pos);
      }
      pos += 1;
      while (pos < max && (content.charCodeAt(pos) === 0x20 || content.charCodeAt(pos) === 0x09)) pos += 1;
      pending = pos;
    } else if (ch === BACKTICK) {
      const start = pos;
      const opener = backticksAt(content, pos);
      pos += opener;
      closers ??= new Map();
      // No run of this length after it: text (found by an earlier scan to the end).
      if (scanned && (closers.get(opener) ?? 0) <= start) continue;
      let matched = false;
      let matchEnd = pos;
      for (
        let at = content.indexOf("`", matchEnd);
        at >= 0 && at < max;
        at = content.indexOf("`", matchEnd)
      ) {
        matchEnd = at + backticksAt(content, at);
        if (matchEnd - at === opener) {
          pushText(pieces, pending, start);
          pieces.push(Kind.Code, start, matchEnd);
          pos = matchEnd;
          pending = pos;
          matched = true;
          break;
        }
        closers.set(matchEnd - at, at);
      }
      if (!matched) scanned = true;
    } else if (ch === STAR || ch === UNDERSCORE) {
      const run = delimiterRun(content, pos, max, ch === STAR, utils);
      const count = run >> 2;
      pushText(pieces, pending, pos);
      for (let i = 0; i < count; i += 1)
        delimiters.push(
          ch,
          count,
          pieces.push(Kind.Marker, pos + i, pos + i + 1),
          (run & CAN_OPEN) !== 0,
          (run & CAN_CLOSE) !== 0,
        );
      pos += count;
      pending = pos;
    } else if (ch === OPEN_BRACKET) {
      const label = plainLinkLabel(content, pos, max);
      const end = label < 0 ? -1 : plainDestinationEnd(content, label + 2, max);
      if (content.charCodeAt(pos - 1) === BANG) return false;
      if (end < 0) {
        // A `[` after the content's last `)` is text: no inline link can close past it, and no
        // reference is defined (a definition starts a paragraph or item with `[`: refused).
        lastParen ??= content.lastIndexOf(")", max - 1);
        if (pos === from || pos < lastParen) return false;
        pos += 1;
        continue;
      }
      pushText(pieces, pending, pos);
      pieces.push(Kind.LinkOpen, label + 2, end - 1);
      // Its text holds no `[`, so `labels` is not reused before its pairing.
      labels.length = 0;
      tokenize(content, pos + 1, label, pieces, labels, utils, labels);
      pairDelimiters(labels);
      markEmphasis(pieces, labels);
      pieces.push(Kind.LinkClose, end, end);
      pos = end;
      pending = pos;
    } else pos += 1;
  }
  pushText(pieces, pending, max);
  return true;
}

/** A text piece from `from` to `to`, unless empty. */
function pushText(pieces: Pieces, from: number, to: number): void {
  if (to > from) pieces.push(Kind.Text, from, to);
}

/**
 * Where the text of a plain link starting at the `[` at `start` ends (at its `]`), or -1:
 * a non-empty text holding no `[` or backtick up to the first `]` (markdown-it's label then
 * ends there), followed by `(`.
 */
function plainLinkLabel(content: string, start: number, max: number): number {
  for (let at = start + 1; at < max; at += 1) {
    const ch = content.charCodeAt(at);
    if (ch === CLOSE_BRACKET)
      return at > start + 1 && content.charCodeAt(at + 1) === OPEN_PAREN && at + 1 < max ? at : -1;
    if (ch === OPEN_BRACKET || ch === BACKTICK) return -1;
  }
  return -1;
}

/**
 * Past the `)` of a plain link's destination starting at `start`, or -1: printable
 * characters without parentheses (no blank, so no title), at least one.
 */
function plainDestinationEnd(content: string, start: number, max: number): number {
  let end = start;
  while (end < max) {
    const ch = content.charCodeAt(end);
    if (ch <= 0x20 || ch === 0x7f || ch === OPEN_PAREN || ch === CLOSE_PAREN) break;
    end += 1;
  }
  return end > start && end < max && content.charCodeAt(end) === CLOSE_PAREN ? end + 1 : -1;
}

/**
 * markdown-it's `balance_pairs` on the emphasis delimiters: each closer, left to right, is
 * matched with the nearest opener of its marker that the rule of 3 allows, skipping pairs
 * already matched (`jumps`) and never looking below where an earlier search of the same
 * kind failed (`bottom`, per marker, closer-can-open and run length mod 3), which keeps
 * it linear.
 */
function pairDelimiters(delimiters: Delimiters): void {
  const { marker, run, piece, end, open, close, jumps, bottom } = delimiters;
  const count = delimiters.length;
  jumps.fill(0, 0, count);
  bottom.fill(-1);
  let header = 0;
  let lastPiece = -2;
  for (let closer = 0; closer < count; closer += 1) {
    const mark = marker[closer] as number;
    if (marker[header] !== mark || lastPiece !== (piece[closer] as number) - 1) header = closer;
    lastPiece = piece[closer] as number;
    if (close[closer] === 0) continue;
    const kind = (mark === STAR ? 0 : 6) + (open[closer] === 1 ? 3 : 0) + ((run[closer] as number) % 3);
    const floor = bottom[kind] as number;
    let opener = header - (jumps[header] as number) - 1;
    let newFloor = opener;
    for (; opener > floor; opener -= (jumps[opener] as number) + 1) {
      if (marker[opener] !== mark || open[opener] === 0 || (end[opener] as number) >= 0) continue;
      const sum = (run[opener] as number) + (run[closer] as number);
      const odd =
        (close[opener] === 1 || open[closer] === 1) &&
        sum % 3 === 0 &&
        ((run[opener] as number) % 3 !== 0 || (run[closer] as number) % 3 !== 0);
      if (odd) continue;
      const lastJump = opener > 0 && open[opener - 1] === 0 ? (jumps[opener - 1] as number) + 1 : 0;
      jumps[closer] = closer - opener + lastJump;
      jumps[opener] = lastJump;
      open[closer] = 0;
      end[opener] = closer;
      close[opener] = 0;
      newFloor = -1;
      lastPiece = -2;
      break;
    }
    if (newFloor !== -1) bottom[kind] = newFloor;
  }
}

/**
 * markdown-it's emphasis post-processing: each matched pair, from the last opener back,
 * becomes emphasis, or strong when the pair just outside it is matched too and adjacent
 * (those two markers then become nothing).
 */
function markEmphasis(pieces: Pieces, delimiters: Delimiters): void {
  const { marker, piece, end } = delimiters;
  const kind = pieces.kind;
  for (let i = delimiters.length - 1; i >= 0; i -= 1) {
    const closer = end[i] as number;
    if (closer === -1) continue;
    const strong =
      i > 0 &&
      end[i - 1] === closer + 1 &&
      marker[i - 1] === marker[i] &&
      piece[i - 1] === (piece[i] as number) - 1 &&
      piece[closer + 1] === (piece[closer] as number) + 1;
    kind[piece[i] as number] = strong ? Kind.StrongOpen : Kind.EmphasisOpen;
    kind[piece[closer] as number] = strong ? Kind.StrongClose : Kind.EmphasisClose;
    if (strong) {
      kind[piece[i - 1] as number] = Kind.Consumed;
      kind[piece[closer + 1] as number] = Kind.Consumed;
      i -= 1;
    }
  }
}
