/**
 * The untrusted-text policy for links (docs/protocol.md, "Untrusted text"): the reply is
 * written by a model an attacker may steer, so no link may show one place and open another.
 * Every renderer passes its tree through {@link judgeLinks} before writing markup:
 *
 * - a link or image whose target is not `http:`, `https:` or `mailto:` (`tg:`, `javascript:`,
 *   `ftp:`, `data:` …) becomes its label as plain text, never a live link;
 * - direction controls and invisible characters are removed from a label (and percent-encoded
 *   in a target), so a label reads as what it is;
 * - a label that is a URL other than the target, or names a host other than the target's,
 *   stays as plain text followed by the real target in parentheses, linked with the URL as its
 *   own text: `https://good.example (https://evil.example/login)`;
 * - an empty label shows the URL.
 */
import type { Image, Link, Nodes, PhrasingContent, Text } from "mdast";

/** Schemes a link may keep live: web pages and e-mail addresses. */
const LINKABLE = /^(?:https?|mailto):/i;

/**
 * Characters that change the reading order or show as nothing: bidi embeddings, overrides,
 * isolates and marks (U+202A–202E, U+2066–2069, U+200E/200F, U+061C), zero-width and
 * joiner characters (U+200B–200D, U+2060–2064, U+FEFF), the soft hyphen and other
 * fillers that draw no glyph (U+00AD, U+115F, U+1160, U+17B4, U+17B5,
 * U+180B–180F, U+3164, U+FFA0), deprecated format characters (U+206A–206F) and tags
 * (U+E0000–E007F).
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is matched (and removed) on its own, never as part of a sequence.
  /[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0\u{E0000}-\u{E007F}]/gu;

/** A URL with a scheme (`https://…`, `ftp://…`) or an address-like scheme (`mailto:`, `tg:`, `javascript:`). */
const URL_LIKE = /[a-z][a-z\d+.-]*:\/\/|\b(?:mailto|tg|javascript|data|file|sms|tel):/i;

/**
 * A host name a label names: labels of letters, digits and hyphens joined by dots and ending in
 * a top-level label of two or more letters (`good.example`, `www.bank.com`, `bank.com.evil`),
 * or an IPv4 address.
 */
const HOST =
  /(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}[\p{L}\p{N}-]*\p{L}|\b\d{1,3}(?:\.\d{1,3}){3}\b/gu;

/** Whether a link to `url` may be live on a platform: its scheme is `http:`, `https:` or `mailto:`. */
export function isLinkable(url: string): boolean {
  return LINKABLE.test(url);
}

/**
 * A character at U+00AD or above: every {@link INVISIBLE} one is (the tags as surrogate pairs),
 * so text without one (most labels and URLs) skips the Unicode scan.
 */
const MAY_HIDE = /[^\0-\xAC]/;

/** Whether `text` holds a direction control or an invisible character (see {@link stripInvisible}). */
export function hasInvisible(text: string): boolean {
  if (!MAY_HIDE.test(text)) return false;
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}

/** `text` without direction controls and invisible characters (what a link label may hold). */
export function stripInvisible(text: string): string {
  return hasInvisible(text) ? text.replace(INVISIBLE, "") : text;
}

/** `url` with its direction controls and invisible characters percent-encoded, so it reads as what it opens. */
function visibleUrl(url: string): string {
  return hasInvisible(url) ? url.replace(INVISIBLE, (c) => encodeURIComponent(c)) : url;
}

/** A host name in its ASCII (punycode) lower-case form, without a leading `www.`; `undefined` if it is none. */
function canonicalHost(host: string): string | undefined {
  // Plain ASCII names need no parser (and `new URL` is the cost of judging a link).
  if (/^[a-z\d-]+(?:\.[a-z\d-]+)*$/i.test(host)) return host.toLowerCase().replace(/^www\./, "");
  try {
    return new URL(`http://${host}/`).hostname.replace(/^www\./, "");
  } catch {
    return undefined;
  }
}

/**
 * The host of an `http(s)` URL whose authority is a plain ASCII domain name, read without a
 * parser: letters, digits, hyphens and dots up to the path, query or fragment or the end, the
 * last label letters only (so never a number the URL parser would read as an IPv4 address)
 * and no label in punycode (which the parser checks). Anything else (a port, user info, a
 * backslash, percent-encoding, non-ASCII) is left to `new URL`.
 */
const PLAIN_HTTP_HOST = /^https?:\/\/((?:[a-z\d-]+\.)*[a-z]+)(?=[/?#]|$)/i;

/** The host a linkable URL opens (for `mailto:`, the address's domain). */
function targetHost(url: string): string | undefined {
  if (/^mailto:/i.test(url)) {
    const domain = /@([^?,&>\s]+)/.exec(url)?.[1];
    return domain === undefined ? undefined : canonicalHost(domain);
  }
  const plain = PLAIN_HTTP_HOST.exec(url)?.[1];
  if (plain !== undefined && !/(?:^|\.)xn--/i.test(plain)) return canonicalHost(plain);
  try {
    return canonicalHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
}

/** Whether two spellings name the same URL (as written, or once both are parsed). */
function sameUrl(label: string, url: string): boolean {
  if (label === url) return true;
  if (!label.includes(":")) return false;
  try {
    return new URL(label).href === new URL(url).href;
  } catch {
    return false;
  }
}

/**
 * Whether a link label would make a reader expect another target than `url`: the label, once
 * {@link stripInvisible}d, is a URL other than `url`, or names a host that is neither the
 * target's host nor a parent domain of it (`www.` ignored). A label that names no host
 * (`the docs`) never misleads; nor does the URL itself.
 */
export function labelMisleads(label: string, url: string): boolean {
  return misleads(stripInvisible(label).trim(), url);
}

/** {@link labelMisleads} for a label already stripped and trimmed. */
function misleads(text: string, url: string): boolean {
  // A URL needs a `:` and a host name a `.`: a label with neither names nothing (most do).
  if (!text.includes(".") && !text.includes(":")) return false;
  if (text === "" || sameUrl(text, url)) return false;
  if (URL_LIKE.test(text)) return true;
  let target: string | undefined | null = null;
  for (const [named] of text.matchAll(HOST)) {
    if (target === null) target = targetHost(url);
    const host = canonicalHost(named);
    if (host === undefined || target === undefined) return true;
    if (target !== host && !target.endsWith(`.${host}`)) return true;
  }
  return false;
}

/** Text of a label's nodes, as the reader sees it. */
function labelText(children: readonly PhrasingContent[]): string {
  let out = "";
  for (const child of children)
    out += "value" in child ? child.value : "children" in child ? labelText(child.children) : "";
  return out;
}

const text = (value: string): Text => ({ type: "text", value });

/** A link to `url` shown as its own URL. */
function bareLink(url: string): Link {
  return { type: "link", url, children: [text(url)] };
}

/**
 * Whether {@link cleanLabel} would change nothing: no image, no empty value and no
 * invisible character anywhere in the label.
 */
function isCleanLabel(children: readonly PhrasingContent[]): boolean {
  for (const child of children) {
    if (child.type === "image") return false;
    if ("value" in child && (child.value === "" || hasInvisible(child.value))) return false;
    if ("children" in child && !isCleanLabel(child.children)) return false;
  }
  return true;
}

/** A label's nodes with invisible characters removed and images as their alt text. */
function cleanLabel(children: readonly PhrasingContent[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const child of children) {
    if (child.type === "text" || child.type === "inlineCode" || child.type === "html")
      out.push({ ...child, value: stripInvisible(child.value) });
    else if (child.type === "image") out.push(text(stripInvisible(child.alt ?? "")));
    else if ("children" in child)
      out.push({ ...child, children: cleanLabel(child.children) } as PhrasingContent);
    else out.push(child);
  }
  return out.filter((child) => !("value" in child) || child.value !== "");
}

/**
 * What a link (or image, with its alt as label) becomes under the policy; `undefined` for a
 * link that stays as it is (a live scheme, a clean label that does not mislead, a visible URL).
 */
function judgeLink(node: Link | Image): Nodes[] | undefined {
  const { url } = node;
  const label = node.type === "link" ? node.children : node.alt ? [text(node.alt)] : [];
  if (!isLinkable(url)) return label.flatMap((child) => judged(child) ?? [child]);
  const target = visibleUrl(url);
  const clean = isCleanLabel(label);
  const cleaned = clean ? label : cleanLabel(label);
  const shown = labelText(cleaned).trim();
  if (shown === "") return [bareLink(target)];
  if (misleads(shown, url)) return [...cleaned, text(" ("), bareLink(target), text(")")];
  if (node.type === "link" && clean && target === url) return undefined;
  return [{ type: "link", url: target, children: cleaned }];
}

/**
 * A node's replacement(s) under the policy, `undefined` when nothing in it changes. A node is
 * copied only when something inside it changed, so a tree of honest links costs one walk.
 */
function judged(node: Nodes): Nodes[] | undefined {
  if (node.type === "link" || node.type === "image") return judgeLink(node);
  if (!("children" in node)) return undefined;
  const list = node.children as Nodes[];
  let children: Nodes[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const child = list[i] as Nodes;
    const out = judged(child);
    if (out === undefined) children?.push(child);
    else {
      children ??= list.slice(0, i);
      children.push(...out);
    }
  }
  return children === undefined ? undefined : [{ ...node, children } as Nodes];
}

/**
 * A tree with every link and image judged by the untrusted-text policy (see the module
 * comment): after it, every `link` node is live-safe (an `http:`, `https:` or `mailto:`
 * target, a clean label that does not mislead, never empty) and no `image` node is left.
 * Returns `tree` itself when nothing in it changes (no link or image, or only honest links).
 */
export function judgeLinks<T extends Nodes>(tree: T): T {
  return (judged(tree)?.[0] ?? tree) as T;
}

/**
 * A web address written as text: `http(s)://` up to a space or `< >`, trailing sentence
 * punctuation left out. Clients link it whole, so it must reach them unbroken.
 */
const BARE_URL = /https?:\/\/[^\s<>]*[^\s<>.,;:!?'")\]]/gi;

/**
 * `text` with its bare web addresses written by `address` (Slack's `<…>`, or verbatim where the
 * client links them itself) and everything between them by `literal`. A marker escape (a
 * zero-width space after `_` or `~`) inside an address would cut the link the client makes
 * of it, and markers in an address never format.
 */
export function escapeAroundUrls(
  text: string,
  literal: (text: string) => string,
  address: (url: string) => string,
): string {
  // Every address holds `://`; most text holds none and needs no scan.
  if (!text.includes("://")) return literal(text);
  let out = "";
  let last = 0;
  for (const match of text.matchAll(BARE_URL)) {
    out += literal(text.slice(last, match.index)) + address(match[0]);
    last = match.index + match[0].length;
  }
  return last === 0 ? literal(text) : out + literal(text.slice(last));
}
