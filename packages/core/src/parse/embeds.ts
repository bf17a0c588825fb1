/**
 * `[embed …]` shortcodes for the web surface: self-closing `[embed ref="cv_1" /]` and the
 * block form `[embed url="…"]…[/embed]`, whose body is removed with it.
 */
import type { CanvasEmbed } from "../payload/types.js";
import type { NextIndex } from "./next-index.js";
import { hasControlCharacter } from "./remote-url.js";

/** An embed opening tag: its attributes and where it ends. */
export interface EmbedOpening {
  /** Attributes, keys lower-cased; the first of a repeated key wins. */
  attributes: Map<string, string>;
  /** Offset just after `/]` or `]`. */
  end: number;
  /** `/]` closed it (no body). */
  selfClosing: boolean;
}

/** Quote searches used while matching, shared across attempts to stay linear. */
export interface EmbedSearch {
  /** Next `"`. */
  double: NextIndex;
  /** Next `'`. */
  single: NextIndex;
}

const MAX_ATTRIBUTES = 32;
const MAX_OPENING_LENGTH = 16_384;

/** Whether `[embed` followed by whitespace starts at `at`. */
export function startsEmbed(text: string, at: number): boolean {
  if ((text.charCodeAt(at + 1) | 32) !== 101) return false;
  return /^\[embed[ \t\r\n]/i.test(text.slice(at, at + 7));
}

/** Match an embed opening tag at `at` (where {@link startsEmbed} holds). */
export function matchEmbedOpening(text: string, at: number, search: EmbedSearch): EmbedOpening | undefined {
  const attributes = new Map<string, string>();
  let i = at + 6;
  for (let count = 0; count <= MAX_ATTRIBUTES && i - at <= MAX_OPENING_LENGTH; count++) {
    const before = i;
    i = skipSpace(text, i);
    if (text.startsWith("/]", i)) return { attributes, end: i + 2, selfClosing: true };
    if (text.charCodeAt(i) === 93) return { attributes, end: i + 1, selfClosing: false };
    if (i === before) return undefined;
    const keyStart = i;
    while (i - keyStart < 64 && /[A-Za-z0-9_:.-]/.test(text.charAt(i))) i++;
    if (i === keyStart) return undefined;
    const key = text.slice(keyStart, i).toLowerCase();
    i = skipSpace(text, i);
    if (text.charCodeAt(i) !== 61) return undefined;
    i = skipSpace(text, i + 1);
    const quote = text.charAt(i);
    if (quote !== '"' && quote !== "'") return undefined;
    const close = (quote === '"' ? search.double : search.single).at(i + 1);
    if (close === -1) return undefined;
    if (!attributes.has(key)) attributes.set(key, text.slice(i + 1, close));
    i = close + 1;
  }
  return undefined;
}

/** Options for turning attributes into a {@link CanvasEmbed}. */
export interface EmbedUrls {
  /** Where a `ref` points. */
  canvasUrl: (ref: string) => string;
}

/** The default canvas location of a `ref`. */
export function defaultCanvasUrl(ref: string): string {
  return `/__openclaw__/canvas/documents/${encodeURIComponent(ref)}/index.html`;
}

/**
 * The canvas an embed describes, or `undefined` when it has neither a `ref` nor an
 * acceptable `url` (`https:` or root-relative `/…`): such a shortcode stays text.
 * `ref` wins over `url` when both are given.
 */
export function toCanvasEmbed(attributes: Map<string, string>, urls: EmbedUrls): CanvasEmbed | undefined {
  const ref = attributes.get("ref")?.trim();
  const url = attributes.get("url")?.trim();
  let preview: CanvasEmbed["preview"];
  if (ref) {
    preview = {
      kind: "canvas",
      surface: "assistant_message",
      render: "url",
      viewId: ref,
      url: urls.canvasUrl(ref),
    };
  } else if (url && isEmbeddableUrl(url)) {
    preview = { kind: "canvas", surface: "assistant_message", render: "url", url };
  } else {
    return undefined;
  }
  const title = attributes.get("title")?.trim();
  if (title) preview.title = title;
  const height = attributes.get("height")?.trim() ?? "";
  if (/^\d{1,9}$/.test(height) && Number(height) >= 160)
    preview.preferredHeight = Math.min(Number(height), 1200);
  return { type: "canvas", preview };
}

/** `https:` URLs and root-relative paths (`/x`, never `//x` or `/\x`), without spaces or controls. */
function isEmbeddableUrl(url: string): boolean {
  if (hasControlCharacter(url, true)) return false;
  if (url.startsWith("/")) return !/^\/[\\/]/.test(url);
  try {
    return new URL(url).protocol === "https:";
  } catch {
    return false;
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
    i++;
  }
}
