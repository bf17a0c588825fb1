/**
 * Secret redaction, shared by every part of Outbox that shows text it did not write
 * (error messages, causes, receipt entries): credentials never reach a message, receipt
 * or log line. Known shapes are always removed; an adapter adds the secrets it holds
 * (`AdapterDefinition.secrets`).
 */

/** What replaces a secret. */
export const REDACTED = "<redacted>";

/** Declared secrets shorter than this are ignored (they would mangle ordinary words). */
export const MIN_SECRET_LENGTH = 6;

/** `scheme://authority/path?query#fragment` inside running text. */
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s"'<>`]*)/gi;

/** Known credential shapes, each with its replacement. */
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // `Authorization: Bearer x`, `"authorization":"Bot x"`, `authorization=x`.
  [/(authorization["']?\s*[:=]\s*["']?)(?:(?:bearer|bot|basic|token)\s+)?[^\s"',;}]+/gi, `$1${REDACTED}`],
  [/\b(bearer|bot)(\s+)[A-Za-z0-9._~+/=-]{16,}/gi, `$1$2${REDACTED}`],
  // Telegram bot tokens, in a URL path (`/bot123:ABC/`) or anywhere.
  [/\/bot\d+:[^/\s?#"'<>]+/g, `/bot${REDACTED}`],
  [/\b\d{5,}:[A-Za-z0-9_-]{30,}/g, REDACTED],
  // Slack tokens (`xoxb-`, `xoxp-`, `xapp-`, …).
  [/\bx(?:ox[a-z]|app)-[A-Za-z0-9-]+/gi, REDACTED],
  // Discord bot tokens and other three-part signed tokens (JWTs).
  [/\b[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{20,}/g, REDACTED],
  // Meta (WhatsApp Cloud API) access tokens.
  [/\bEAA[A-Za-z0-9]{20,}/g, REDACTED],
  // Matrix access tokens (Synapse `syt_`, MAS `mat_` and `mct_`).
  [/\b(?:syt|mat|mct)_[A-Za-z0-9_-]{8,}/g, REDACTED],
  // Signatures of signed links (the media host's `sig=`) in a bare path, outside a full URL.
  [/([?&]sig=)[^\s&#"'<>]+/gi, `$1${REDACTED}`],
];

/**
 * A URL safe to show: userinfo dropped, query and fragment replaced by `?…` (they carry
 * signatures and tokens). Works on text that is not a valid URL too.
 */
function redactUrl(scheme: string, rest: string): string {
  const cut = rest.search(/[?#]/);
  const withoutQuery = cut === -1 ? rest : `${rest.slice(0, cut)}${rest.charAt(cut) === "?" ? "?…" : ""}`;
  const authorityEnd = withoutQuery.search(/[/\\?]/);
  const authority = authorityEnd === -1 ? withoutQuery : withoutQuery.slice(0, authorityEnd);
  const at = authority.lastIndexOf("@");
  return at === -1 ? `${scheme}${withoutQuery}` : `${scheme}${withoutQuery.slice(at + 1)}`;
}

/** Escapes a string for use inside a regular expression. */
function literal(secret: string): string {
  return secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Remove secrets from text: bot tokens in URL paths, `Authorization` / `Bearer` values,
 * Slack `xox?-` tokens, Discord bot tokens, URL userinfo and query strings, and every
 * declared secret (as written and percent-encoded; secrets shorter than
 * {@link MIN_SECRET_LENGTH} are ignored).
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)]))
      out = out.replace(new RegExp(literal(form), "g"), REDACTED);
  }
  out = out.replace(URL_IN_TEXT, (_match, scheme: string, rest: string) => redactUrl(scheme, rest));
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * At most `maxLength` characters of a platform's answer (an HTML error page, a proxy's text),
 * to quote in an error message: secrets are removed from the whole text BEFORE it is cut, so
 * a cut can never leave the start of a secret that redaction would no longer recognise.
 */
export function redactedExcerpt(text: string, secrets: readonly string[] = [], maxLength = 200): string {
  const clean = redactSecrets(text, secrets);
  if (clean.length <= maxLength) return clean;
  const high = clean.charCodeAt(maxLength - 1);
  return clean.slice(0, high >= 0xd800 && high <= 0xdbff ? maxLength - 1 : maxLength);
}

/** Own properties of an error worth keeping, redacted; other objects are dropped. */
function redactValue(
  value: unknown,
  secrets: readonly string[],
  seen: WeakMap<object, unknown>,
  depth: number,
): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (value === null || typeof value !== "object") return typeof value === "function" ? undefined : value;
  if (seen.has(value)) return seen.get(value);
  if (depth > 6) return undefined;
  if (value instanceof Error) return redactErrorWith(value, secrets, seen, depth);
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value.slice(0, 100)) copy.push(redactValue(item, secrets, seen, depth + 1));
    return copy;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) {
    const redacted = redactValue(item, secrets, seen, depth + 1);
    if (redacted !== undefined) copy[key] = redacted;
  }
  return copy;
}

/** Whether reading `name` and `message` through the prototype works on `copy`. */
function readable(copy: Error): boolean {
  try {
    return typeof copy.name === "string" && typeof copy.message === "string";
  } catch {
    return false;
  }
}

/**
 * An empty instance to copy an error's own properties onto. Most errors keep their message
 * in own properties, so a bare object with the same prototype is a faithful copy; a
 * `DOMException` (what `AbortSignal.timeout` throws) keeps its name and message in internal
 * slots that its prototype's getters check, so it is constructed anew, and an error of any
 * other such host class becomes an `Error` with the same name and message rather than an
 * object that throws when printed.
 */
function blankCopy<E extends Error>(error: E, secrets: readonly string[]): E {
  if (typeof DOMException === "function" && error instanceof DOMException)
    return new DOMException(redactSecrets(error.message, secrets), error.name) as unknown as E;
  const copy = Object.create(Object.getPrototypeOf(error)) as E;
  if (readable(copy) || Object.hasOwn(error, "message")) return copy;
  const stand = new Error(redactSecrets(String(error.message), secrets)) as E;
  Object.defineProperty(stand, "name", { value: error.name, configurable: true, writable: true });
  return stand;
}

function redactErrorWith<E extends Error>(
  error: E,
  secrets: readonly string[],
  seen: WeakMap<object, unknown>,
  depth: number,
): E {
  const copy = blankCopy(error, secrets);
  seen.set(error, copy);
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key);
    if (descriptor === undefined || !("value" in descriptor)) continue;
    const value = redactValue(descriptor.value, secrets, seen, depth + 1);
    if (value === undefined && descriptor.value !== undefined) continue;
    Object.defineProperty(copy, key, { ...descriptor, value });
  }
  return copy;
}

/**
 * A copy of an error (same class, so `instanceof` and `code` still work) whose message,
 * stack, string properties and whole `cause` chain went through {@link redactSecrets}.
 * Nested plain objects and arrays are copied redacted; other objects (streams, buffers,
 * class instances that are not errors) are left out.
 */
export function redactError<E extends Error>(error: E, secrets: readonly string[] = []): E {
  return redactErrorWith(error, secrets, new WeakMap(), 0);
}
