import type { Root } from "mdast";
import { directTree } from "./direct-tree.js";
import { type LazyMarkdownParser, lazyMarkdownParser } from "./markdown-it.js";
import { plainTree } from "./plain-tree.js";
import { toMdast } from "./to-mdast.js";

/** The reply parser (with spoilers), built once. */
const withSpoilers = lazyMarkdownParser(true);
/** The same parser without the spoiler rules, for text with no `||` (most replies). */
const withoutSpoilers = lazyMarkdownParser(false);

/**
 * Parse reply text into the tree renderers receive: {@link parseMarkdown}'s tree plus
 * `||spoiler||` nodes. Reference links and images are already plain links and images,
 * so every piece of the tree renders on its own. Text without `||` skips the spoiler
 * rules (they only act on a `||` run, so the tree is the same).
 */
export function parseReplyMarkdown(text: string): Root {
  return toMdast(parserFor(text).parse(text, {}), text);
}

/**
 * {@link parseReplyMarkdown}'s tree without source positions, for the delivery path, where
 * nothing reads them (planning, splitting and rendering look at content only). Text with no
 * Markdown syntax at all is not parsed (see {@link plainTree}), and paragraphs of simple
 * inline content skip markdown-it's tokens (see {@link directTree}).
 */
export function replyTree(text: string): Root {
  return plainTree(text) ?? directTree(text) ?? toMdast(parserFor(text).parse(text, {}), text, false);
}

function parserFor(text: string): LazyMarkdownParser {
  return text.includes("||") ? withSpoilers : withoutSpoilers;
}
