import type { Root } from "mdast";
import { createMarkdownParser } from "./markdown-it.js";
import { toMdast } from "./to-mdast.js";

/** The reply parser (with spoilers), built once. */
const parser = createMarkdownParser(true);

/**
 * Parse reply text into the tree renderers receive: {@link parseMarkdown}'s tree plus
 * `||spoiler||` nodes. Reference links and images are already plain links and images,
 * so every piece of the tree renders on its own.
 */
export function parseReplyMarkdown(text: string): Root {
  return toMdast(parser.parse(text, {}), text);
}
