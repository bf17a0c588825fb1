/**
 * URLs as shown in messages: query strings and fragments dropped (they carry signatures),
 * Telegram bot tokens in paths redacted.
 */

/** A URL safe to show in an error message or log. */
export function describeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return JSON.stringify(raw.slice(0, 80));
  }
  const query = url.search === "" ? "" : "?…";
  const path = url.pathname.replace(/\/bot\d+:[\w-]+/g, "/bot<redacted>");
  return `${url.protocol}//${url.host}${path}${query}`;
}
