/**
 * Escaping for Telegram HTML: `& < >` in text, and `"` too inside attribute values.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const SPECIAL = /[&<>]/;
const SPECIALS = /[&<>]/g;

/** Escape text content (one pass; text without `& < >` is returned as is). */
export function escapeHtml(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c] as string) : text;
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

/**
 * Length of rendered Telegram HTML as Telegram counts it: UTF-16 code units of the visible
 * text. Counts in one pass without building the visible text (tags skipped, an entity
 * counted as what it decodes to); equal to `visibleText(html).length`.
 */
export function visibleLength(html: string): number {
  let length = 0;
  for (let i = 0; i < html.length; ) {
    const c = html.charCodeAt(i);
    if (c === 60 /* < */) {
      const end = html.indexOf(">", i + 1);
      if (end >= 0) {
        i = end + 1;
        continue;
      }
    } else if (c === 38 /* & */) {
      ENTITY.lastIndex = i;
      const entity = ENTITY.exec(html);
      if (entity) {
        length += visibleText(entity[0]).length;
        i += entity[0].length;
        continue;
      }
    }
    length += 1;
    i += 1;
  }
  return length;
}

const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);/iy;

/** Readable plain text of rendered Telegram HTML: links become `label (url)`, markup goes. */
export function plainText(html: string): string {
  const linked = html.replace(/<a href="([^"]*)">([\s\S]*?)<\/a>/g, (_whole, href: string, label: string) => {
    const url = visibleText(href);
    const text = visibleText(label);
    return escapeHtml(text === url ? url : `${text} (${url})`);
  });
  return visibleText(linked);
}
