/**
 * Sanitized HTML → what a person reads: the visible text and its formatting spans
 * (`ObservedFormat`, UTF-16 offsets) and lines, decoded from the sanitized fragment the page
 * shows by core's `readHtml`, as a browser lays it out: blocks separated by a blank line, list
 * items and `<br>` by a line break, a list item with its marker (`• `, or its number and
 * `. `), indented two spaces per nesting level.
 */
import { type HtmlReading, type ReadHtml, readHtml } from "@outbox/core";
import { parseDocument } from "htmlparser2";

/** The page's layout: a spoiler is `span.ob-spoiler`; a rule shows no text. */
const PAGE: HtmlReading = { spoiler: (attribs) => attribs.class === "ob-spoiler", rule: "" };

/** The visible text of an HTML fragment, its spans in order of offset, and its lines. */
export function decodeHtml(html: string): ReadHtml {
  return readHtml(parseDocument(html).children, PAGE);
}
