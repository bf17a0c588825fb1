/**
 * Markdown tree → HTML for the web inbox, written by core's HTML renderer: every text value
 * escaped; the only elements `p br strong em del code pre blockquote ul ol li hr a
 * span.ob-spoiler` (a heading is a bold paragraph), and links only to `https:`, `http:` and
 * `mailto:`. Raw HTML in the reply is text. The result still goes through `sanitizeHtml`
 * (defence in depth).
 */
import { createHtmlRenderer } from "@outbox/core";

/** Render a Markdown tree (a whole reply or a chunk of one) as HTML. */
export const renderMarkdownHtml = createHtmlRenderer({
  heading: (_depth, content) => `<p><strong>${content}</strong></p>`,
  spoilerAttributes: ' class="ob-spoiler"',
});
