import type { Break, InlineCode, Paragraph, PhrasingContent, Text } from "mdast";

/** An inline node that holds phrasing children. */
export type PhrasingContainer = Extract<PhrasingContent, { children: PhrasingContent[] }>;

/**
 * How a tree's phrasing nodes are made: {@link freshNodes}, a new object for each (the
 * public parser's trees, which callers may change), or {@link SharedNodes}, one frozen node
 * for each recurring small one (the delivery path's trees).
 */
export interface PhrasingNodes {
  text(value: string): Text;
  code(value: string): InlineCode;
  hardBreak(): Break;
  /** `container` holding `children`: the container, or an equal node made before. */
  closed(container: PhrasingContainer, children: PhrasingContent[]): PhrasingContent;
  /** A block's phrasing children, or an equal array made before. */
  children(children: PhrasingContent[]): PhrasingContent[];
}

/** How a tree's paragraphs are made too: the delivery path's front ends build whole trees. */
export interface TreeNodes extends PhrasingNodes {
  /** A paragraph of `children` ({@link PhrasingNodes.children}' answer). */
  paragraph(children: PhrasingContent[]): Paragraph;
  /** A paragraph of one text of `value`. */
  textParagraph(value: string): Paragraph;
}

/** A new node every time. */
export const freshNodes: TreeNodes = {
  text: (value) => ({ type: "text", value }),
  code: (value) => ({ type: "inlineCode", value }),
  hardBreak: () => ({ type: "break" }),
  closed: (container, children) => {
    container.children = children;
    return container;
  },
  children: (children) => children,
  paragraph: (children) => ({ type: "paragraph", children }),
  textParagraph: (value) => ({ type: "paragraph", children: [{ type: "text", value }] }),
};

/**
 * Replies shorter than this get fresh nodes: sharing costs a few table lookups per node
 * and frozen nodes of their own shape in every renderer's reads (an 11 kB reply parsed
 * 1.5 times slower, a short one 2.2 times), and only long replies have the room to repeat a
 * node the hundreds of thousands of times that cost memory.
 */
const SHARE_FROM = 64 * 1024;

/** The nodes the delivery path builds `text`'s tree of: shared ones (see {@link SharedNodes}) for a long text. */
export function treeNodes(text: string): TreeNodes {
  return text.length < SHARE_FROM ? freshNodes : new SharedNodes();
}

/** Longest text, code or link destination shared: longer ones rarely recur, and cost a hash to look up. */
const MAX_SHARED_LENGTH = 64;
/** Distinct nodes shared per tree: a text of nothing but distinct words keeps no larger table. */
const MAX_SHARED = 4096;

const EMPTY: PhrasingContent[] = Object.freeze([]) as unknown as PhrasingContent[];
const BREAK: Break = Object.freeze({ type: "break" });

/**
 * Phrasing nodes of one tree, a recurring small node made once and shared (frozen): a text,
 * a code span, a break, a container whose one child is shared (`*a*`, `[l](u)`), a block's
 * children of one shared node, and a paragraph of those. A hostile reply of 250,000 `*a*`
 * then holds 250,000 references to one emphasis node instead of 750,000 objects (48 MB for
 * 1 MB of text), and a million tiny paragraphs one. The tree reads the same; renderers and
 * the planner only read it (a planner's piece of a block already shares its nodes), and a
 * frozen node makes a change throw where it would have changed every place it stands.
 * A frozen node is a shared one: a container is shared only around one.
 */
class SharedNodes implements TreeNodes {
  readonly #texts = new Map<string, Text>();
  readonly #codes = new Map<string, InlineCode>();
  /** Containers by their one child, then by type (a link: its destination and title too). */
  readonly #containers = new Map<PhrasingContent, Map<string, PhrasingContent>>();
  readonly #lists = new Map<PhrasingContent, PhrasingContent[]>();
  readonly #paragraphs = new Map<PhrasingContent[], Paragraph>();
  #count = 0;

  text(value: string): Text {
    if (value.length > MAX_SHARED_LENGTH) return { type: "text", value };
    return this.#texts.get(value) ?? this.#keep(this.#texts, value, { type: "text", value });
  }

  code(value: string): InlineCode {
    if (value.length > MAX_SHARED_LENGTH) return { type: "inlineCode", value };
    return this.#codes.get(value) ?? this.#keep(this.#codes, value, { type: "inlineCode", value });
  }

  hardBreak(): Break {
    return BREAK;
  }

  closed(container: PhrasingContainer, children: PhrasingContent[]): PhrasingContent {
    container.children = children;
    const child = children[0];
    if (children.length !== 1 || !Object.isFrozen(child)) return container;
    const key = containerKey(container);
    if (key === undefined) return container;
    let byKey = this.#containers.get(child as PhrasingContent);
    if (byKey === undefined) {
      if (this.#count >= MAX_SHARED) return container;
      byKey = new Map();
      this.#containers.set(child as PhrasingContent, byKey);
    }
    container.children = this.children(children);
    return byKey.get(key) ?? this.#keep(byKey, key, container);
  }

  children(children: PhrasingContent[]): PhrasingContent[] {
    if (children.length === 0) return EMPTY;
    const child = children[0] as PhrasingContent;
    if (children.length !== 1 || !Object.isFrozen(child)) return children;
    return this.#lists.get(child) ?? this.#keep(this.#lists, child, children);
  }

  /** One node for every paragraph of the same shared children. */
  paragraph(children: PhrasingContent[]): Paragraph {
    if (!Object.isFrozen(children)) return { type: "paragraph", children };
    return (
      this.#paragraphs.get(children) ??
      this.#keep(this.#paragraphs, children, { type: "paragraph", children })
    );
  }

  textParagraph(value: string): Paragraph {
    const text = this.text(value);
    if (!Object.isFrozen(text)) return { type: "paragraph", children: [text] };
    return this.paragraph(this.#lists.get(text) ?? this.#keep(this.#lists, text, [text]));
  }

  /** `made`, kept in `map` under `key` and frozen while there is room. */
  #keep<K, T extends object>(map: Map<K, T>, key: K, made: T): T {
    if (this.#count >= MAX_SHARED) return made;
    this.#count += 1;
    map.set(key, Object.freeze(made));
    return made;
  }
}

/** What tells a container apart from another around the same child, `undefined` for a long destination. */
function containerKey(container: PhrasingContainer): string | undefined {
  if (container.type !== "link") return container.type;
  if (container.url.length > MAX_SHARED_LENGTH) return undefined;
  const title = container.title;
  if (title === null || title === undefined) return container.url;
  // `\0` never reaches a destination (the parser replaces it), so the key tells titles apart.
  return title.length > MAX_SHARED_LENGTH ? undefined : `${container.url}\0${title}`;
}
