import type { PhrasingContent, Text } from "mdast";

/** An inline node that holds phrasing children. */
export type PhrasingContainer = Extract<PhrasingContent, { children: PhrasingContent[] }>;

/**
 * Builds a paragraph's phrasing content from inline pieces in source order, as both inline
 * front ends (markdown-it's tokens, and the direct parser of plain-and-emphasis text) read
 * them: adjacent text merged into one node, a soft line break a `\n` in that text, and
 * containers opened and closed around their children.
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
  /** The last of the innermost children when it is a text node: adjacent text is merged into it. */
  #last: Text | undefined;
  /**
   * How many blanks end the text added to `last` since its last line break: the text a soft
   * break drops. Counted from the pieces added, never by reading `last.value`, a long
   * concatenation that reading would flatten at every line.
   */
  #blanks = 0;

  /** Append text (merged into the text before it; empty text changes nothing). */
  text(value: string): void {
    if (value === "") return;
    if (this.#last === undefined) {
      this.#last = { type: "text", value };
      this.#pending.push(this.#last);
      this.#blanks = 0;
    } else this.#last.value += value;
    let end = value.length;
    while (end > 0 && isBlank(value.charCodeAt(end - 1))) end -= 1;
    this.#blanks = end === 0 ? this.#blanks + value.length : value.length - end;
  }

  /** A soft line break: a `\n`, dropping the spaces and tabs before it (markdown-it drops only spaces). */
  softBreak(): void {
    if (this.#last === undefined) {
      this.#last = { type: "text", value: "\n" };
      this.#pending.push(this.#last);
    } else {
      if (this.#blanks > 0) this.#last.value = this.#last.value.slice(0, -this.#blanks);
      this.#last.value += "\n";
    }
    this.#blanks = 0;
  }

  /** Append a node that holds no phrasing children. */
  leaf(node: PhrasingContent): void {
    this.#pending.push(node);
    this.#last = undefined;
  }

  /** Append a container: what follows goes inside it until {@link close}. */
  open(container: PhrasingContainer): void {
    this.#pending.push(container);
    this.#open.push(container);
    this.#starts.push(this.#pending.length);
    this.#last = undefined;
  }

  /** Close the innermost open container (nothing when none is open). */
  close(): void {
    const container = this.#open.pop();
    if (container === undefined) return;
    const start = this.#starts.pop() as number;
    container.children = this.#pending.slice(start);
    this.#pending.length = start;
    this.#last = undefined;
  }

  /** The content built (a container left open holds what followed it). */
  finish(): PhrasingContent[] {
    while (this.#open.length > 0) this.close();
    return this.#pending.slice();
  }
}

function isBlank(ch: number): boolean {
  return ch === 0x20 || ch === 0x09;
}
