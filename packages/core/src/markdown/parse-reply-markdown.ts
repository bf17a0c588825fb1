import type { Root } from "mdast";
import { parseMarkdown } from "./parse-markdown.js";
import { resolveReferences } from "./resolve-references.js";
import { addSpoilers } from "./spoiler.js";

/**
 * Parse reply text into the tree renderers receive: {@link parseMarkdown}, plus
 * `||spoiler||` nodes, with link/image references resolved into plain links and images
 * (so every piece of the tree renders on its own).
 */
export function parseReplyMarkdown(text: string): Root {
  const tree = parseMarkdown(text);
  resolveReferences(tree);
  addSpoilers(tree, text);
  return tree;
}
