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
  /** The content built. */
  readonly root: PhrasingContent[] = [];
  /** The children arrays enclosing each open container, innermost last. */
  readonly #outer: PhrasingContent[][] = [];
  #children: PhrasingContent[] = this.root;
  /** The last of `children` when it is a text node: adjacent text is merged into it. */
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
      this.#children.push(this.#last);
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
      this.#children.push(this.#last);
    } else {
      if (this.#blanks > 0) this.#last.value = this.#last.value.slice(0, -this.#blanks);
      this.#last.value += "\n";
    }
    this.#blanks = 0;
  }

  /** Append a node that holds no phrasing children. */
  leaf(node: PhrasingContent): void {
    this.#children.push(node);
    this.#last = undefined;
  }

  /** Append a container: what follows goes inside it until {@link close}. */
  open(container: PhrasingContainer): void {
    this.#children.push(container);
    this.#outer.push(this.#children);
    this.#children = container.children;
    this.#last = undefined;
  }

  /** Close the innermost open container (nothing when none is open). */
  close(): void {
    const outer = this.#outer.pop();
    if (outer === undefined) return;
    this.#children = outer;
    this.#last = undefined;
  }
}

function isBlank(ch: number): boolean {
  return ch === 0x20 || ch === 0x09;
}
