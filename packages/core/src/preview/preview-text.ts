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
 * What a live preview shows for the Markdown written so far: directives removed (`MEDIA:`
 * lines, reply tags), open constructs closed ({@link closePartialMarkdown}), rendered by
 * the platform's renderer. Over the text limit (or the edit limit, when lower) it shows the head (the first chunk, as the
 * final reply's split would cut it, within the limit less room for the ellipsis) followed
 * by a paragraph `…`: the preview message becomes the reply's first message at settle, so
 * its beginning stays put while the rest is written. `undefined` when nothing is visible yet.
 */
export function previewText(
  markdown: string,
  capabilities: Capabilities,
  renderer: Renderer,
): RenderedText | undefined {
  const visible = parseReply(markdown, { media: "strip" }).text;
  const tree = parseReplyMarkdown(closePartialMarkdown(visible));
  if (tree.children.length === 0) return undefined;
  const whole = renderer.render(tree);
  if (whole.trim() === "") return undefined;
  // The preview message is edited every time it changes: it keeps to the edit limit.
  const limit = Math.min(
    capabilities.text.maxLength,
    capabilities.edits?.maxLength ?? Number.POSITIVE_INFINITY,
  );
  if (renderer.measure(whole) <= limit) return renderedText(tree, renderer, whole);
  const ellipsis: Paragraph = { type: "paragraph", children: [{ type: "text", value: PREVIEW_ELLIPSIS }] };
  const room = renderer.measure(renderer.render({ type: "root", children: [ellipsis] })) + 2;
  for (const reserve of [room, room * 2]) {
    const head = splitText(tree, renderer, Math.max(1, limit - reserve))[0];
    if (head === undefined) break;
    const shown: Root = { type: "root", children: [...head.tree.children, ellipsis] };
    const text = renderer.render(shown);
    if (renderer.measure(text) <= limit) return renderedText(shown, renderer, text);
  }
  const head = splitText(tree, renderer, limit)[0];
  return head === undefined ? undefined : renderedText(head.tree, renderer, head.rendered);
}
