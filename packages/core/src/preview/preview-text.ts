import type { Paragraph, Root } from "mdast";
import type { Capabilities, RenderedText, Renderer } from "../adapter/types.js";
import { parseReplyMarkdown } from "../markdown/parse-reply-markdown.js";
import { parseReply } from "../parse/parse-reply.js";
import { renderedText } from "../plan/rendered-text.js";
import { splitText } from "../plan/split-text.js";
import { closePartialMarkdown } from "./partial-markdown.js";

/** Shown after the head of a preview that is over the platform's text limit. */
const PREVIEW_ELLIPSIS = "…";

/**
 * The first window of Markdown a preview reads, in multiples of the platform's text limit:
 * the head it shows is cut from it when it renders over the limit; otherwise the window
 * grows fourfold until it does or holds the whole reply.
 */
const FIRST_WINDOW = 2;

/** A preview of some Markdown, and whether it shows only the head of it. */
interface Preview {
  text: RenderedText;
  head: boolean;
}

/**
 * What a live preview shows for the Markdown written so far: directives removed (`MEDIA:`
 * lines, reply tags), open constructs closed ({@link closePartialMarkdown}), rendered by
 * the platform's renderer. Over the text limit (or the edit limit, when lower) it shows the head (the first chunk, as the
 * final reply's split would cut it, within the limit less room for the ellipsis) followed
 * by a paragraph `…`: the preview message becomes the reply's first message at settle, so
 * its beginning stays put while the rest is written. `undefined` when nothing is visible yet.
 *
 * Only a window at the start of the text is read: twice the limit, growing fourfold while
 * it renders within the limit, so a long reply costs the work of its head, not of its
 * length.
 */
export function previewText(
  markdown: string,
  capabilities: Capabilities,
  renderer: Renderer,
): RenderedText | undefined {
  return readPreview(markdown, capabilities, renderer).text;
}

/**
 * {@link previewText} for one preview. The same text asked for again returns the last result
 * without parsing it again; so does a text that only extends the one a head was cut from:
 * the head of a reply over the limit stays put while the rest is written (the preview message
 * becomes the reply's first message at settle), so once a preview shows a head, later updates
 * cost a comparison of that text's length instead of parsing and rendering twice the limit.
 */
export function createPreviewText(
  capabilities: Capabilities,
  renderer: Renderer,
): (markdown: string) => RenderedText | undefined {
  let last: { markdown: string; text: RenderedText | undefined } | undefined;
  /** The Markdown a shown head was cut from. */
  let headOf: string | undefined;
  return (markdown) => {
    if (last?.markdown === markdown) return last.text;
    if (headOf !== undefined && last !== undefined && markdown.startsWith(headOf)) return last.text;
    const read = readPreview(markdown, capabilities, renderer);
    last = { markdown, text: read.text };
    headOf = read.headOf;
    return read.text;
  };
}

/** The preview of `markdown`, and the Markdown its head was cut from when it shows a head. */
function readPreview(
  markdown: string,
  capabilities: Capabilities,
  renderer: Renderer,
): { text: RenderedText | undefined; headOf?: string } {
  // The preview message is edited every time it changes: it keeps to the edit limit.
  const limit = Math.min(
    capabilities.text.maxLength,
    capabilities.edits?.maxLength ?? Number.POSITIVE_INFINITY,
  );
  for (let window = FIRST_WINDOW * limit; ; window *= 4) {
    const lineEnd = markdown.lastIndexOf("\n", window);
    const read =
      markdown.length <= window ? markdown : markdown.slice(0, lineEnd > window / 2 ? lineEnd : window);
    const preview = previewOf(read, limit, renderer);
    if (preview?.head) return { text: preview.text, headOf: read };
    if (read === markdown) return { text: preview?.text };
  }
}

function previewOf(markdown: string, limit: number, renderer: Renderer): Preview | undefined {
  const visible = parseReply(markdown, { media: "strip" }).text;
  const tree = parseReplyMarkdown(closePartialMarkdown(visible));
  if (tree.children.length === 0) return undefined;
  const whole = renderer.render(tree);
  if (whole.trim() === "") return undefined;
  if (renderer.measure(whole) <= limit) return { text: renderedText(tree, renderer, whole), head: false };
  const ellipsis: Paragraph = { type: "paragraph", children: [{ type: "text", value: PREVIEW_ELLIPSIS }] };
  const room = renderer.measure(renderer.render({ type: "root", children: [ellipsis] })) + 2;
  for (const reserve of [room, room * 2]) {
    const head = splitText(tree, renderer, Math.max(1, limit - reserve))[0];
    if (head === undefined) break;
    const shown: Root = { type: "root", children: [...head.tree.children, ellipsis] };
    const text = renderer.render(shown);
    if (renderer.measure(text) <= limit) return { text: renderedText(shown, renderer, text), head: true };
  }
  const head = splitText(tree, renderer, limit)[0];
  return head === undefined
    ? undefined
    : { text: renderedText(head.tree, renderer, head.rendered), head: true };
}
