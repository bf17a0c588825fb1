import type { Code, Heading, List, Root, RootContent } from "mdast";
import { markdownUtils } from "./markdown-it.js";
import { treeNodes } from "./phrasing-nodes.js";
import { SimplePhrasing } from "./simple-inline.js";
import { fencedCode } from "./to-mdast.js";

const HASH = 0x23;
const SPACE = 0x20;
const STAR = 0x2a;
const PLUS = 0x2b;
const DASH = 0x2d;
const DOT = 0x2e;
const CLOSE_PAREN = 0x29;
const BACKTICK = 0x60;
const UNDERSCORE = 0x5f;

/**
 * The tree of a reply made of paragraphs, ATX headings, fenced code and lists of one-line
 * items only, whose inline content is text, emphasis, code spans, breaks and plain links
 * (most assistant replies), parsed without markdown-it's tokens: exactly the tree the parser
 * builds, without source positions, a long reply's recurring small nodes shared (see
 * {@link treeNodes}).
 * `undefined` when the text holds anything else (see {@link opensOtherBlock}, {@link listItem}
 * and {@link SimplePhrasing}); it is then parsed.
 */
export function directTree(text: string): Root | undefined {
  const nodes = treeNodes(text);
  const inline = new SimplePhrasing(text, markdownUtils(), nodes);
  // markdown-it rewrites these before reading lines, in code blocks too.
  if (text.includes("\r") || text.includes("\0")) return undefined;
  const children: RootContent[] = [];
  /** Where the paragraph being gathered starts (-1 for none), and where its last line ends. */
  let paragraph = -1;
  let paragraphEnd = 0;
  /** The list whose last item is the last block seen, if any, and its marker character. */
  let list: List | undefined;
  let marker = 0;
  /** Whether a blank line follows that list's last item. */
  let blank = false;
  // A paragraph is a run of non-blank lines (no line starts with a space, so a blank line is
  // empty) that a heading line ends, its content trimmed of the spaces ending it.
  const flush = (): boolean => {
    if (paragraph < 0) return true;
    const phrasing = inline.parse(paragraph, trimEnd(text, paragraph, paragraphEnd));
    paragraph = -1;
    if (phrasing === undefined) return false;
    children.push(nodes.paragraph(phrasing));
    return true;
  };
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const item = end === start ? undefined : listItem(text, start, end);
    if (end === start) {
      if (!flush()) return undefined;
      blank = true;
    } else if (text.charCodeAt(start) === HASH) {
      if (!flush()) return undefined;
      const heading = atxHeading(text, start, end, inline);
      if (heading === undefined) return undefined;
      children.push(heading);
      list = undefined;
    } else if (text.startsWith("```", start)) {
      if (!flush()) return undefined;
      const fence = fencedBlock(text, start, end);
      if (fence === undefined) return undefined;
      children.push(fence.code);
      list = undefined;
      start = fence.next;
      continue;
    } else if (item !== undefined) {
      // An item with another marker starts a new list; so does one after any other block.
      // After a paragraph line, an ordered item starting at another number is more of the
      // paragraph.
      if (list === undefined || item.marker !== marker) {
        if (paragraph >= 0 && item.start !== null && item.start !== 1) return undefined;
        if (!flush()) return undefined;
        list = { type: "list", ordered: item.start !== null, start: item.start, spread: false, children: [] };
        marker = item.marker;
        children.push(list);
      } else if (blank) list.spread = true;
      const phrasing = inline.parse(item.content, trimEnd(text, item.content, end));
      if (phrasing === undefined) return undefined;
      list.children.push({
        type: "listItem",
        spread: false,
        checked: null,
        children: [{ type: "paragraph", children: phrasing }],
      });
      blank = false;
    } else {
      // A line right after an item continues its paragraph.
      if ((list !== undefined && !blank) || opensOtherBlock(text, start, end)) return undefined;
      list = undefined;
      if (paragraph < 0) paragraph = start;
      paragraphEnd = end;
    }
    start = end + 1;
  }
  return flush() ? { type: "root", children } : undefined;
}

/** A list item's line: its marker character (`-`, `*`, `+`, or an ordered one's `.` or `)`), number and content. */
interface ItemLine {
  marker: number;
  /** An ordered item's number, `null` for a bullet. */
  start: number | null;
  /** Where its content starts. */
  content: number;
}

/**
 * The list item on the line from `start` to `end` (not blank), as markdown-it reads it: a
 * bullet (`-`, `*`, `+`) or one to nine digits and `.` or `)`, one to four spaces, and
 * content that opens no block of its own. `undefined` for any other line, an item with a
 * tab after its marker, more spaces (indented code) or no content included: such an
 * item is left to markdown-it, as {@link opensOtherBlock} finds every line that may be one.
 */
function listItem(text: string, start: number, end: number): ItemLine | undefined {
  const first = text.charCodeAt(start);
  let at = start;
  let number: number | null = null;
  if (first === DASH || first === STAR || first === PLUS) at += 1;
  else {
    while (at < end && at - start < 9 && isDigit(text.charCodeAt(at))) at += 1;
    const delimiter = text.charCodeAt(at);
    if (at === start || (delimiter !== DOT && delimiter !== CLOSE_PAREN)) return undefined;
    number = Number(text.slice(start, at));
    at += 1;
  }
  const marker = text.charCodeAt(at - 1);
  let content = at;
  while (content < end && text.charCodeAt(content) === SPACE) content += 1;
  if (content === at || content - at > 4 || content === end) return undefined;
  const next = text.charCodeAt(content);
  if (next === HASH || text.startsWith("```", content) || opensOtherBlock(text, content, end))
    return undefined;
  return { marker, start: number, content };
}

/**
 * The ATX heading on the line from `start` to `end`, as markdown-it reads it: one to six
 * `#` and a space (or the line's end), the content trimmed, a closing run of `#` after a
 * space dropped. `undefined` for any other line starting with `#`.
 */
function atxHeading(text: string, start: number, end: number, inline: SimplePhrasing): Heading | undefined {
  let pos = start;
  while (pos < end && text.charCodeAt(pos) === HASH) pos += 1;
  const depth = pos - start;
  if (depth > 6 || (pos < end && text.charCodeAt(pos) !== SPACE)) return undefined;
  let max = trimEnd(text, pos, end);
  let closing = max;
  while (closing > pos && text.charCodeAt(closing - 1) === HASH) closing -= 1;
  if (closing > pos && text.charCodeAt(closing - 1) === SPACE) max = closing;
  let from = pos;
  while (from < max && text.charCodeAt(from) === SPACE) from += 1;
  const children = inline.parse(from, trimEnd(text, from, max));
  return children === undefined ? undefined : { type: "heading", depth: depth as Heading["depth"], children };
}

/**
 * The fenced code block opened by the line from `start` to `end` (three or more backticks
 * at its start) and where the text after its closing line starts, as markdown-it reads it:
 * the info string after the backticks, the lines up to a line of at least as many backticks
 * and nothing but blanks after them. `undefined` (left to markdown-it) for an info string
 * holding a backtick (no fence then), an escape or an entity, a fence never closed, and a
 * backtick after one to three spaces inside (a closing fence may be indented).
 */
function fencedBlock(text: string, start: number, end: number): { code: Code; next: number } | undefined {
  let pos = start;
  while (pos < end && text.charCodeAt(pos) === BACKTICK) pos += 1;
  const fence = pos - start;
  const info = text.slice(pos, end);
  if (/[`\\&]/.test(info)) return undefined;
  for (let line = end + 1; line <= text.length; ) {
    let lineEnd = text.indexOf("\n", line);
    if (lineEnd < 0) lineEnd = text.length;
    let at = line;
    while (at < lineEnd && text.charCodeAt(at) === SPACE) at += 1;
    if (text.charCodeAt(at) === BACKTICK && at < lineEnd) {
      if (at > line && at - line < 4) return undefined;
      let run = at;
      while (run < lineEnd && text.charCodeAt(run) === BACKTICK) run += 1;
      let rest = run;
      while (rest < lineEnd && (text.charCodeAt(rest) === SPACE || text.charCodeAt(rest) === 0x09)) rest += 1;
      if (at === line && run - at >= fence && rest === lineEnd)
        return { code: fencedCode(info, text.slice(end + 1, line)), next: lineEnd + 1 };
    }
    line = lineEnd + 1;
  }
  return undefined;
}

/** Where the text from `start` to `end` ends without its trailing spaces. */
function trimEnd(text: string, start: number, end: number): number {
  let last = end;
  while (last > start && text.charCodeAt(last - 1) === SPACE) last -= 1;
  return last;
}

/**
 * Whether the line from `start` to `end` (not blank, not starting with `#` or a fence) may open a block
 * other than a paragraph, or continue one in a way the direct parser does not read: a quote,
 * list, setext underline, thematic break, fence, or a line starting with a space (indented
 * code, a blank line of spaces).
 */
function opensOtherBlock(text: string, start: number, end: number): boolean {
  const first = text.charCodeAt(start);
  switch (first) {
    case DASH:
    case PLUS:
    case 0x3e: // >
    case 0x3d: // =
    case SPACE:
      return true;
    case STAR:
      if (start + 1 === end || text.charCodeAt(start + 1) === SPACE) return true;
      return onlyBreakCharacters(text, start, end);
    case UNDERSCORE:
      return onlyBreakCharacters(text, start, end);
  }
  // An ordered list item: one to nine digits, then `.` or `)`.
  let at = start;
  while (at < end && at - start < 9 && isDigit(text.charCodeAt(at))) at += 1;
  const after = text.charCodeAt(at);
  return at > start && (after === 0x2e || after === 0x29);
}

/** Whether the line holds only `*`, `_` and spaces (a thematic break, or close enough to leave). */
function onlyBreakCharacters(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at += 1) {
    const ch = text.charCodeAt(at);
    if (ch !== STAR && ch !== UNDERSCORE && ch !== SPACE) return false;
  }
  return true;
}

function isDigit(ch: number): boolean {
  return ch >= 0x30 && ch <= 0x39;
}
