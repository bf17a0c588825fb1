import type { InlineCode, PhrasingContent } from "mdast";
import { freshNodes, type PhrasingContainer, type PhrasingNodes } from "./phrasing-nodes.js";

/**
 * Builds a paragraph's phrasing content from inline pieces in source order, as both inline
 * front ends (markdown-it's tokens, and the direct parser of plain-and-emphasis text) read
 * them: adjacent text merged into one node, a soft line break a `\n` in that text, and
 * containers opened and closed around their children. Its nodes come from `nodes`.
 */
export class PhrasingBuilder {
  /**
   * The children of every open container, outermost first: a container's children are
   * copied out when it closes, into an array of their exact size. A children array grown by
   * appending keeps room for 17 (V8), which made a paragraph of 500,000 emphasis nodes twice
   * the memory.
   */
  readonly #pending: PhrasingContent[] = [];
  /** The open containers, innermost last, and where each one's children start in `pending`. */
  readonly #open: PhrasingContainer[] = [];
  readonly #starts: number[] = [];
  /**
   * The pieces of the text that ends the innermost children, made one text node when
   * anything else comes: up to {@link JOIN_FROM} concatenated, more joined once, where
   * appending each to the node's value made a string of one link per piece (17 MB kept for a
   * 1 MB quote of 250,000 lines).
   */
  readonly #text: string[] = [];
  /** How many of `text`'s first entries are the pieces (the rest are stale, overwritten next). */
  #pieces = 0;
  /** How many blanks end those pieces since the last line break: the text a soft break drops. */
  #blanks = 0;

  constructor(private readonly nodes: PhrasingNodes = freshNodes) {}

  /** Append text (merged into the text before it; empty text changes nothing). */
  text(value: string): void {
    if (value === "") return;
    this.#text[this.#pieces++] = value;
    let end = value.length;
    while (end > 0 && isBlank(value.charCodeAt(end - 1))) end -= 1;
    this.#blanks = end === 0 ? this.#blanks + value.length : value.length - end;
  }

  /** A soft line break: a `\n`, dropping the spaces and tabs before it (markdown-it drops only spaces). */
  softBreak(): void {
    const text = this.#text;
    for (let drop = this.#blanks; drop > 0; ) {
      const last = text[--this.#pieces] as string;
      if (last.length > drop) text[this.#pieces++] = last.slice(0, last.length - drop);
      drop -= last.length;
    }
    text[this.#pieces++] = "\n";
    this.#blanks = 0;
  }

  /** A code span; with `position`, its own node carrying it. */
  code(value: string, position?: InlineCode["position"]): void {
    this.leaf(position === undefined ? this.nodes.code(value) : { type: "inlineCode", value, position });
  }

  /** A hard line break. */
  hardBreak(): void {
    this.leaf(this.nodes.hardBreak());
  }

  /** Append a node that holds no phrasing children. */
  leaf(node: PhrasingContent): void {
    this.#endText();
    this.#pending.push(node);
  }

  /** Append a container: what follows goes inside it until {@link close}. */
  open(container: PhrasingContainer): void {
    this.leaf(container);
    this.#open.push(container);
    this.#starts.push(this.#pending.length);
  }

  /** Close the innermost open container (nothing when none is open). */
  close(): void {
    const container = this.#open.pop();
    if (container === undefined) return;
    this.#endText();
    const start = this.#starts.pop() as number;
    const children = this.#pending.slice(start);
    this.#pending.length = start;
    this.#pending[start - 1] = this.nodes.closed(container, children);
  }

  /** The content built (a container left open holds what followed it). */
  finish(): PhrasingContent[] {
    while (this.#open.length > 0) this.close();
    this.#endText();
    return this.nodes.children(this.#pending.slice());
  }

  /** Turn the pending text pieces into one text node. */
  #endText(): void {
    const pieces = this.#pieces;
    if (pieces === 0) return;
    const text = this.#text;
    let value = text[0] as string;
    if (pieces > 1) {
      // A few pieces are concatenated; many are joined into one flat string.
      if (pieces <= JOIN_FROM) for (let i = 1; i < pieces; i += 1) value += text[i] as string;
      else {
        text.length = pieces;
        value = text.join("");
      }
    }
    this.#pending.push(this.nodes.text(value));
    this.#pieces = 0;
    this.#blanks = 0;
  }
}

/** Pieces past this many are joined, not concatenated: a concatenation keeps one link per piece. */
const JOIN_FROM = 16;

function isBlank(ch: number): boolean {
  return ch === 0x20 || ch === 0x09;
}
