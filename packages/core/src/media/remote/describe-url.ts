/**
 * URLs as shown in messages: the parsed form through {@link redactSecrets} (userinfo,
 * query strings and fragments dropped, bot tokens in paths redacted).
 */
import { redactSecrets } from "../../errors/redact.js";

/** A URL safe to show in an error message or log. */
export function describeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return redactSecrets(JSON.stringify(raw.slice(0, 80)));
  }
  return redactSecrets(url.href);
}
