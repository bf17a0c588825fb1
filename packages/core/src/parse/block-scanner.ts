/**
 * CommonMark block structure, as far as code needs it: block quotes, list items, lazy
 * paragraph continuation, fenced code (closed only by a bare closing line, or by the end of
 * its container), indented code (which cannot interrupt a paragraph), and the leaf blocks
 * whose inline content may hold code spans. One pass over the lines, linear in the text.
 */
import { findCodeSpans } from "./code-spans.js";

interface Container {
  /** A block quote (`>`) or a list item. */
  kind: "quote" | "item";
  /** For a list item, the column its content starts at. */
  contentColumn: number;
  /** A list item that has no content yet (it began with a blank line). */
  empty: boolean;
}

interface Fence {
  /** `` ` `` or `~`. */
  char: number;
  /** Length of the opening run. */
  length: number;
  /** Number of containers around the fence. */
  depth: number;
  /** Offset where the fence (and its code range) starts. */
  start: number;
}

const SPACE = 32;
/** Deeper container markers are read as text, which keeps every line linear. */
const MAX_NESTING = 32;
const TAB = 9;

/** Scans a text and appends its code ranges (unsorted pairs) to `out`. */
export class BlockScanner {
  private readonly stack: Container[] = [];
  private fence: Fence | undefined;
  /** Lines of the open paragraph (or heading) as flattened [start, end) pairs. */
  private paragraph: number[] = [];
  /** Open indented code block: [start, end of last non-blank line). */
  private indented: [number, number] | undefined;
  private indentedDepth = 0;
  private pos = 0;
  private col = 0;
  private lineEnd = 0;
  private previousLineEnd = 0;

  constructor(
    private readonly text: string,
    private readonly out: number[],
  ) {}

  /** Scan every line of the text. */
  run(): void {
    const { text } = this;
    let lineStart = 0;
    while (lineStart <= text.length) {
      const newline = text.indexOf("\n", lineStart);
      const next = newline === -1 ? text.length : newline;
      this.lineEnd = next > lineStart && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
      this.pos = lineStart;
      this.col = 0;
      this.line();
      this.previousLineEnd = this.lineEnd;
      if (newline === -1) break;
      lineStart = newline + 1;
    }
    this.closeFence(text.length);
    this.closeParagraph();
    this.closeIndented();
  }

  private line(): void {
    let matched = 0;
    for (const container of this.stack) {
      if (!this.continues(container)) break;
      matched++;
    }
    const fence = this.fence;
    if (fence) {
      if (matched >= fence.depth) {
        if (this.closesFence(fence)) this.closeFence(this.lineEnd);
        return;
      }
      this.closeFence(this.previousLineEnd);
    }
    if (matched < this.stack.length) {
      if (this.paragraph.length > 0 && !this.isBlank() && !this.startsBlock()) {
        this.paragraph.push(this.skipSpaces(), this.lineEnd);
        return;
      }
      this.closeParagraph();
      if (this.indentedDepth > matched) this.closeIndented();
      this.stack.length = matched;
    }
    this.openContainers();
    this.leaf();
  }

  /** Consume a container's continuation marker; false when the line does not continue it. */
  private continues(container: Container): boolean {
    const savePos = this.pos;
    const saveCol = this.col;
    if (container.kind === "quote") {
      // markdown-it continues a quote at any indentation (CommonMark stops at four columns);
      // the scanner follows the parser that renders the reply.
      this.skipSpaces();
      if (this.text.charCodeAt(this.pos) === 62) {
        this.pos++;
        this.col++;
        this.skipOneSpace();
        return true;
      }
    } else {
      // An item may begin with at most one blank line.
      if (this.isBlank()) return !container.empty;
      this.advanceTo(container.contentColumn);
      if (this.col >= container.contentColumn) return true;
    }
    this.pos = savePos;
    this.col = saveCol;
    return false;
  }

  private openContainers(): void {
    while (this.stack.length < MAX_NESTING) {
      if (this.indentWidth() >= 4) return;
      const savePos = this.pos;
      const saveCol = this.col;
      this.skipSpaces();
      if (this.text.charCodeAt(this.pos) === 62) {
        this.closeParagraph();
        this.closeIndented();
        this.pos++;
        this.col++;
        this.skipOneSpace();
        this.stack.push({ kind: "quote", contentColumn: this.col, empty: false });
        continue;
      }
      if (this.thematicBreak()) {
        this.pos = savePos;
        this.col = saveCol;
        return;
      }
      const width = this.listMarkerWidth();
      if (width === 0) {
        this.pos = savePos;
        this.col = saveCol;
        return;
      }
      this.closeParagraph();
      this.closeIndented();
      this.pos += width;
      this.col += width;
      const markerEnd = this.col;
      const afterMarker = this.pos;
      const padding = this.indentWidth();
      const empty = this.isBlank();
      if (empty || padding >= 5) {
        this.pos = afterMarker;
        this.col = markerEnd;
        this.advanceTo(markerEnd + 1);
        this.stack.push({ kind: "item", contentColumn: markerEnd + 1, empty });
      } else {
        this.skipSpaces();
        this.stack.push({ kind: "item", contentColumn: this.col, empty: false });
      }
    }
  }

  private leaf(): void {
    const depth = this.stack.length;
    if (this.isBlank()) {
      this.closeParagraph();
      return;
    }
    for (const container of this.stack) container.empty = false;
    const indent = this.indentWidth();
    if (this.indented && indent >= 4) {
      this.indented[1] = this.lineEnd;
      return;
    }
    if (this.paragraph.length === 0 && indent >= 4) {
      this.advanceTo(this.col + 4);
      this.indented = [this.pos, this.lineEnd];
      this.indentedDepth = depth;
      return;
    }
    this.closeIndented();
    const start = this.skipSpaces();
    if (indent <= 3) {
      const code = this.text.charCodeAt(start);
      if ((code === 96 || code === 126) && this.opensFence(code)) return;
      if (code === 35 && /^#{1,6}(?:[ \t]|$)/.test(this.text.slice(start, start + 8))) {
        this.closeParagraph();
        findCodeSpans(this.text, [start, this.lineEnd], this.out);
        return;
      }
      if (this.paragraph.length > 0 && /^(?:=+|-+)[ \t]*$/.test(this.text.slice(start, this.lineEnd))) {
        this.closeParagraph();
        return;
      }
      if (this.thematicBreak()) {
        this.closeParagraph();
        return;
      }
    }
    this.paragraph.push(start, this.lineEnd);
  }

  private opensFence(char: number): boolean {
    const { text } = this;
    const start = this.pos;
    let end = start;
    while (end < this.lineEnd && text.charCodeAt(end) === char) end++;
    if (end - start < 3) return false;
    if (char === 96) for (let i = end; i < this.lineEnd; i++) if (text.charCodeAt(i) === 96) return false;
    this.closeParagraph();
    this.fence = { char, length: end - start, depth: this.stack.length, start };
    return true;
  }

  private closesFence(fence: Fence): boolean {
    if (this.indentWidth() > 3) return false;
    let at = this.skipSpaces();
    const start = at;
    while (at < this.lineEnd && this.text.charCodeAt(at) === fence.char) at++;
    if (at - start < fence.length) return false;
    while (at < this.lineEnd && isSpace(this.text.charCodeAt(at))) at++;
    return at === this.lineEnd;
  }

  private closeFence(end: number): void {
    if (!this.fence) return;
    this.out.push(this.fence.start, Math.max(end, this.fence.start));
    this.fence = undefined;
  }

  private closeParagraph(): void {
    if (this.paragraph.length === 0) return;
    findCodeSpans(this.text, this.paragraph, this.out);
    this.paragraph = [];
  }

  private closeIndented(): void {
    if (!this.indented) return;
    this.out.push(this.indented[0], this.indented[1]);
    this.indented = undefined;
  }

  /** Whether the rest of the line would open a block (so it cannot be a lazy continuation). */
  private startsBlock(): boolean {
    if (this.indentWidth() >= 4) return false;
    const savePos = this.pos;
    const saveCol = this.col;
    const start = this.skipSpaces();
    const code = this.text.charCodeAt(start);
    const fenceRun = this.text.slice(start, start + 3);
    const result =
      code === 62 ||
      fenceRun === "```" ||
      fenceRun === "~~~" ||
      /^#{1,6}(?:[ \t]|$)/.test(this.text.slice(start, start + 8)) ||
      this.thematicBreak() ||
      this.listMarkerWidth() > 0;
    this.pos = savePos;
    this.col = saveCol;
    return result;
  }

  /** Width of a list marker at the current position that may start an item here, or 0. */
  private listMarkerWidth(): number {
    const { text } = this;
    const at = this.pos;
    const code = text.charCodeAt(at);
    let width = 0;
    let ordered = false;
    if (code === 45 || code === 43 || code === 42) width = 1;
    else {
      while (width < 9 && isDigit(text.charCodeAt(at + width))) width++;
      const delimiter = text.charCodeAt(at + width);
      if (width === 0 || (delimiter !== 46 && delimiter !== 41)) return 0;
      ordered = true;
      width++;
    }
    const after = at + width;
    if (after < this.lineEnd && !isSpace(text.charCodeAt(after))) return 0;
    if (this.paragraph.length > 0) {
      const blankItem = text.slice(after, this.lineEnd).trim() === "";
      if (blankItem || (ordered && text.slice(at, at + width - 1) !== "1")) return 0;
    }
    return width;
  }

  private thematicBreak(): boolean {
    if (this.indentWidth() > 3) return false;
    let start = this.pos;
    while (start < this.lineEnd && isSpace(this.text.charCodeAt(start))) start++;
    const code = this.text.charCodeAt(start);
    if (code !== 45 && code !== 42 && code !== 95) return false;
    let count = 0;
    for (let i = start; i < this.lineEnd; i++) {
      const c = this.text.charCodeAt(i);
      if (c === code) count++;
      else if (!isSpace(c)) return false;
    }
    return count >= 3;
  }

  private isBlank(): boolean {
    for (let i = this.pos; i < this.lineEnd; i++) if (!isSpace(this.text.charCodeAt(i))) return false;
    return true;
  }

  /** Columns of whitespace at the current position (tabs to the next multiple of 4). */
  private indentWidth(): number {
    let col = this.col;
    for (let i = this.pos; i < this.lineEnd; i++) {
      const c = this.text.charCodeAt(i);
      if (c === SPACE) col++;
      else if (c === TAB) col += 4 - (col % 4);
      else break;
    }
    return col - this.col;
  }

  /** Consume whitespace; returns the new position. */
  private skipSpaces(): number {
    while (this.pos < this.lineEnd && isSpace(this.text.charCodeAt(this.pos))) this.step();
    return this.pos;
  }

  /** Consume whitespace up to `column`. */
  private advanceTo(column: number): void {
    while (this.col < column && this.pos < this.lineEnd && isSpace(this.text.charCodeAt(this.pos)))
      this.step();
  }

  private skipOneSpace(): void {
    if (this.pos < this.lineEnd && isSpace(this.text.charCodeAt(this.pos))) this.step();
  }

  private step(): void {
    const c = this.text.charCodeAt(this.pos);
    this.col = c === TAB ? this.col + 4 - (this.col % 4) : this.col + 1;
    this.pos++;
  }
}

function isSpace(code: number): boolean {
  return code === SPACE || code === TAB;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
