/**
 * The text a sanitized HTML fragment shows, for quoting a message in a reply reference.
 */
import { DomUtils, parseDocument } from "htmlparser2";

/** Text content of an HTML fragment, whitespace runs collapsed. */
export function visibleText(html: string): string {
  return DomUtils.textContent(parseDocument(html).children).replace(/\s+/g, " ").trim();
}
