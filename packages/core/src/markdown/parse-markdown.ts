import type { Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmStrikethroughFromMarkdown } from "mdast-util-gfm-strikethrough";
import { gfmStrikethrough } from "micromark-extension-gfm-strikethrough";

/** Parser extensions, built once (they are stateless). */
const options = {
  extensions: [gfmStrikethrough({ singleTilde: false })],
  mdastExtensions: [gfmStrikethroughFromMarkdown()],
};

/**
 * Parse reply Markdown (CommonMark + GFM strikethrough) into an mdast tree with positions.
 * This is the one Markdown parser of Outbox: the protocol parser uses it to find code,
 * and the delivery plan hands its tree to the platform renderers.
 */
export function parseMarkdown(text: string): Root {
  return fromMarkdown(text, options);
}
