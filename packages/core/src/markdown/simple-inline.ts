import type { Token } from "markdown-it";
import type { InlineCode, PhrasingContent } from "mdast";
import { codeSpanText } from "./code-span.js";
import { CAN_CLOSE, CAN_OPEN, type DelimiterUtils, delimiterRun } from "./delimiter-scan.js";
import { InlineSource } from "./inline-to-mdast.js";
import { PhrasingBuilder } from "./phrasing-builder.js";
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
  EmphasisOpen,
  EmphasisClose,
  StrongOpen,
  StrongClose,
}

const STAR = 0x2a;
const UNDERSCORE = 0x5f;
const BACKTICK = 0x60;

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
  length = 0;

  constructor(capacity: number) {
    this.marker = new Uint8Array(capacity);
    this.run = new Int32Array(capacity);
    this.piece = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.open = new Uint8Array(capacity);
    this.close = new Uint8Array(capacity);
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

/**
 * How many markers, and how many pieces at most, the content makes: every piece but text
 * starts at a marker, a backtick or a line feed, and text lies between them.
 */
function capacities(content: string): { markers: number; pieces: number } {
  let markers = 0;
  let others = 0;
  for (let i = 0; i < content.length; i += 1) {
    const ch = content.charCodeAt(i);
    if (ch === STAR || ch === UNDERSCORE) markers += 1;
    else if (ch === BACKTICK || ch === 0x0a) others += 1;
  }
  return { markers, pieces: Math.min(content.length, 2 * (markers + others) + 1) };
}

/**
 * Parse inline content that {@link isSimpleInline} accepts straight into mdast phrasing
 * content: the tree markdown-it's inline rules (text, newline, backticks, emphasis, then
 * pairing the delimiters and turning pairs into emphasis) and the token converter would
 * build, step for step, without a token per piece. `inline` is the paragraph's or
 * heading's `inline` token; with `lines`, code spans get their source position.
 */
export function simpleInline(
  inline: Token,
  utils: DelimiterUtils,
  lines: SourceLines | undefined,
  text: string,
): PhrasingContent[] {
  const content = inline.content;
  const capacity = capacities(content);
  const pieces = new Pieces(capacity.pieces);
  const delimiters = new Delimiters(capacity.markers);
  tokenize(content, pieces, delimiters, utils);
  pairDelimiters(delimiters);
  markEmphasis(pieces, delimiters);
  const built = new PhrasingBuilder();
  let source: InlineSource | undefined;
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
        const code: InlineCode = {
          type: "inlineCode",
          value: codeSpanText(content.slice(start + fence, end - fence)),
        };
        if (lines !== undefined) {
          source ??= new InlineSource(inline, lines, text);
          code.position = source.position({ start, end });
        }
        built.leaf(code);
        break;
      }
      case Kind.SoftBreak:
        built.softBreak();
        break;
      case Kind.HardBreak:
        built.leaf({ type: "break" });
        break;
      case Kind.EmphasisOpen:
        built.open({ type: "emphasis", children: [] });
        break;
      case Kind.StrongOpen:
        built.open({ type: "strong", children: [] });
        break;
      case Kind.EmphasisClose:
      case Kind.StrongClose:
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
 */
function tokenize(content: string, pieces: Pieces, delimiters: Delimiters, utils: DelimiterUtils): void {
  const max = content.length;
  /** Where the pending text starts. */
  let pending = 0;
  const text = (end: number): void => {
    if (end > pending) pieces.push(Kind.Text, pending, end);
  };
  /** The last start of a closing run of each length seen while looking for a code span's end. */
  const closers = new Map<number, number>();
  let scanned = false;
  let pos = 0;
  while (pos < max) {
    const ch = content.charCodeAt(pos);
    if (ch === 0x0a) {
      if (pos > pending && content.charCodeAt(pos - 1) === 0x20) {
        if (pos - 1 > pending && content.charCodeAt(pos - 2) === 0x20) {
          let spaces = pos - 2;
          while (spaces > pending && content.charCodeAt(spaces - 1) === 0x20) spaces -= 1;
          text(spaces);
          pieces.push(Kind.HardBreak, pos, pos);
        } else {
          text(pos - 1);
          pieces.push(Kind.SoftBreak, pos, pos);
        }
      } else {
        text(pos);
        pieces.push(Kind.SoftBreak, pos, pos);
      }
      pos += 1;
      while (pos < max && (content.charCodeAt(pos) === 0x20 || content.charCodeAt(pos) === 0x09)) pos += 1;
      pending = pos;
    } else if (ch === BACKTICK) {
      const start = pos;
      const opener = backticksAt(content, pos);
      pos += opener;
      // No run of this length after it: text (found by an earlier scan to the end).
      if (scanned && (closers.get(opener) ?? 0) <= start) continue;
      let matched = false;
      let matchEnd = pos;
      for (let at = content.indexOf("`", matchEnd); at >= 0; at = content.indexOf("`", matchEnd)) {
        matchEnd = at + backticksAt(content, at);
        if (matchEnd - at === opener) {
          text(start);
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
      text(pos);
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
    } else pos += 1;
  }
  text(max);
}

/**
 * markdown-it's `balance_pairs` on the emphasis delimiters: each closer, left to right, is
 * matched with the nearest opener of its marker that the rule of 3 allows, skipping pairs
 * already matched (`jumps`) and never looking below where an earlier search of the same
 * kind failed (`bottom`, per marker, closer-can-open and run length mod 3), which keeps
 * it linear.
 */
function pairDelimiters(delimiters: Delimiters): void {
  const { marker, run, piece, end, open, close } = delimiters;
  const count = delimiters.length;
  const jumps = new Int32Array(count);
  const bottom = new Int32Array(12).fill(-1);
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
