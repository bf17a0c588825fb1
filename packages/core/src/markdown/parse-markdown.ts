import type { Root } from "mdast";
import { lazyMarkdownParser } from "./markdown-it.js";
import { toMdast } from "./to-mdast.js";

/** The CommonMark + strikethrough parser, built once (parsing keeps no state in it). */
const parser = lazyMarkdownParser(false);

/**
 * Parse Markdown (CommonMark + GFM `~~strikethrough~~`) into an mdast tree, with
 * reference links and images resolved into plain ones (no `definition` nodes). Block
 * nodes carry line-based positions and `code` / `inlineCode` their exact source ranges.
 * This is the one Markdown parser of Outbox (markdown-it underneath).
 */
export function parseMarkdown(text: string): Root {
  return toMdast(parser.parse(text, {}), text);
}
