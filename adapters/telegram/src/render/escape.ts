/**
 * Escaping for Telegram HTML: `& < >` in text, and `"` too inside attribute values.
 */

/** Escape text content. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Escape an attribute value (quoted with `"`). */
export function escapeAttribute(value: string): string {
  return escapeHtml(value).replace(/"/g, "&quot;");
}

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/**
 * The visible text of rendered Telegram HTML, as Telegram shows it: tags removed,
 * entities decoded. Assumes well-formed renderer output (every `<` in text is escaped).
 */
export function visibleText(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (!name.startsWith("#")) return NAMED[name] ?? whole;
    const hex = name[1] === "x" || name[1] === "X";
    return String.fromCodePoint(Number.parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10));
  });
}

/** Length of rendered Telegram HTML as Telegram counts it: UTF-16 code units of the visible text. */
export function visibleLength(html: string): number {
  return visibleText(html).length;
}

/** Readable plain text of rendered Telegram HTML: links become `label (url)`, markup goes. */
export function plainText(html: string): string {
  const linked = html.replace(/<a href="([^"]*)">([\s\S]*?)<\/a>/g, (_whole, href: string, label: string) => {
    const url = visibleText(href);
    const text = visibleText(label);
    return escapeHtml(text === url ? url : `${text} (${url})`);
  });
  return visibleText(linked);
}
