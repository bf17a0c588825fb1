/**
 * HTML escaping for text content and double-quoted attribute values, shared by the HTML
 * renderers (Matrix's `formatted_body`, the web inbox).
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const SPECIAL = /[&<>"']/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };

/** Escape text or an attribute value: `& < > " '` become entities. */
export function escapeHtml(text: string): string {
  // Most text has nothing to escape: a test is cheaper than a replace that finds nothing.
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string) : text;
}

/** Undo {@link escapeHtml} (only the five entities it writes). */
export function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_all, name: string) => ENTITIES[name] as string);
}
