/**
 * Markdown tree → Matrix `formatted_body` (`org.matrix.custom.html`), written by core's HTML
 * renderer in the spec's dialect: tags and attributes of its recommended allow-list
 * (`p br h1–h6 strong em del code pre blockquote ul ol[start] li hr a[href] span[data-mx-spoiler]`,
 * `code[class=language-*]`), links only to `http:`, `https:` and `mailto:` (core's
 * untrusted-text policy, stricter than the spec's list), every text value escaped,
 * line structure as elements (a paragraph is `<p>`, a line break inside it `<br>`).
 */
import { createHtmlRenderer } from "@outbox/core";

/** Render a Markdown tree (a whole reply or a chunk of one) as Matrix HTML. */
export const renderMatrixHtml = createHtmlRenderer({
  heading: (depth, content) => `<h${depth}>${content}</h${depth}>`,
  spoilerAttributes: " data-mx-spoiler",
});
