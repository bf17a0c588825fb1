import type { Parent, PhrasingContent, Root, RootContent, Text } from "mdast";

/** `||hidden||` text: shown blurred until tapped (Telegram `<tg-spoiler>`, Discord `||…||`). */
export interface Spoiler extends Parent {
  /** Node type. */
  type: "spoiler";
  /** The hidden content. */
  children: PhrasingContent[];
}

declare module "mdast" {
  interface PhrasingContentMap {
    /** `||spoiler||` (Outbox extension). */
    spoiler: Spoiler;
  }
  interface RootContentMap {
    /** `||spoiler||` (Outbox extension). */
    spoiler: Spoiler;
  }
}

const DELIMITER = "||";

type Piece = PhrasingContent | "delimiter";

/**
 * Wrap `||…||` runs in `spoiler` nodes, in place. Delimiters pair up left to right within
 * one parent (so `||a **b** c||` works); an unpaired `||` stays text. Code is never
 * touched (it is `code`/`inlineCode`, not `text`), and a text node whose source differs
 * from its value (it holds an escape or a character reference) is left alone, so
 * `\|\|` stays literal.
 */
export function addSpoilers(tree: Root, source: string): void {
  visit(tree, source);
}

function visit(node: Root | RootContent, source: string): void {
  if (!("children" in node)) return;
  for (const child of node.children) visit(child, source);
  if (!node.children.some((child) => child.type === "text" && child.value.includes(DELIMITER))) return;
  const pieces = toPieces(node.children as PhrasingContent[], source);
  (node as Parent).children = pair(pieces);
}

function toPieces(children: PhrasingContent[], source: string): Piece[] {
  const pieces: Piece[] = [];
  for (const child of children) {
    if (child.type !== "text" || !child.value.includes(DELIMITER) || !isVerbatim(child, source)) {
      pieces.push(child);
      continue;
    }
    child.value.split(DELIMITER).forEach((value, index) => {
      if (index > 0) pieces.push("delimiter");
      if (value !== "") pieces.push({ type: "text", value });
    });
  }
  return pieces;
}

function isVerbatim(node: Text, source: string): boolean {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start !== undefined && end !== undefined && source.slice(start, end) === node.value;
}

function pair(pieces: Piece[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let open: PhrasingContent[] | undefined;
  const remaining = pieces.filter((piece) => piece === "delimiter").length;
  let seen = 0;
  for (const piece of pieces) {
    if (piece !== "delimiter") {
      (open ?? out).push(piece);
      continue;
    }
    seen += 1;
    if (open === undefined) {
      if (seen === remaining) pushText(out, DELIMITER);
      else open = [];
    } else if (open.length === 0) {
      pushText(out, DELIMITER + DELIMITER);
      open = undefined;
    } else {
      out.push({ type: "spoiler", children: open });
      open = undefined;
    }
  }
  return mergeText(out);
}

function pushText(out: PhrasingContent[], value: string): void {
  out.push({ type: "text", value });
}

function mergeText(nodes: PhrasingContent[]): PhrasingContent[] {
  const merged: PhrasingContent[] = [];
  for (const node of nodes) {
    const last = merged.at(-1);
    if (node.type === "text" && last?.type === "text") {
      merged[merged.length - 1] = { type: "text", value: last.value + node.value };
    } else merged.push(node);
  }
  return merged;
}
