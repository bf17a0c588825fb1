/**
 * Finds the inline directives of a reply outside code, in one left-to-right pass: tags,
 * embeds and (opt-in) Markdown images. Each is reported once; overlapping candidates
 * lose to the one that starts first.
 */
import type { CanvasEmbed } from "../payload/types.js";
import { type CodeRanges, isProse } from "./code-ranges.js";
import { type EmbedUrls, matchEmbedOpening, startsEmbed, toCanvasEmbed } from "./embeds.js";
import { type Brackets, matchBrackets, matchImage } from "./images.js";
import { NextIndex, nextOf } from "./next-index.js";
import { checkRemoteMediaUrl } from "./remote-url.js";
import { matchTag, skipBlanks } from "./tags.js";

/** What a removed stretch of text was. */
export type Directive =
  | { kind: "audio_as_voice" | "reply_to_current" }
  | { kind: "reply_to"; id: string }
  | { kind: "embed"; embed: CanvasEmbed }
  | { kind: "image"; url: string };

/** A directive and the `[start, end)` text it occupies. */
export type Found = Directive & { start: number; end: number };

/** Options of {@link scanDirectives}. */
export interface ScanOptions extends EmbedUrls {
  /** Look for Markdown images with a public https URL. */
  images: boolean;
}

/** Every directive in `text` outside `code`, in order, not overlapping. */
export function scanDirectives(text: string, code: CodeRanges, options: ScanOptions): Found[] {
  const found: Found[] = [];
  const idStop = nextOf(text, "]\n");
  const search = { double: nextOf(text, '"'), single: nextOf(text, "'") };
  let closings: NextIndex | undefined;
  let lineEnd = -1;
  let brackets: Brackets | undefined;

  const image = (i: number): Found | undefined => {
    if (i > lineEnd) {
      const newline = text.indexOf("\n", i);
      lineEnd = newline === -1 ? text.length : newline;
      brackets = matchBrackets(text, text.lastIndexOf("\n", i) + 1, lineEnd, brackets);
    }
    const match = brackets && matchImage(text, i - 1, lineEnd, brackets);
    return match && checkRemoteMediaUrl(match.url).ok
      ? { kind: "image", url: match.url, start: i - 1, end: match.end }
      : undefined;
  };

  const embed = (i: number): Found | undefined => {
    const opening = matchEmbedOpening(text, i, search);
    const canvas = opening && toCanvasEmbed(opening.attributes, options);
    if (!opening || !canvas || !isProse(code, i, opening.end)) return undefined;
    if (opening.selfClosing) return { kind: "embed", embed: canvas, start: i, end: opening.end };
    closings ??= closingSearch(text, code);
    const close = closings.at(opening.end);
    return close === -1
      ? undefined
      : { kind: "embed", embed: canvas, start: i, end: close + "[/embed]".length };
  };

  const at = (i: number): Found | undefined => {
    // Every directive starts outside code.
    if (!isProse(code, i, i + 1)) return undefined;
    const imageStart = options.images && text.charCodeAt(i - 1) === 33 && i - 1 >= (found.at(-1)?.end ?? 0);
    const match = imageStart ? image(i) : undefined;
    if (match) return isProse(code, match.start, match.end) ? match : undefined;
    if (text.charCodeAt(i + 1) === 91) {
      const tag = matchTag(text, i, idStop);
      return tag && isProse(code, i, tag.end) ? tag : undefined;
    }
    return startsEmbed(text, i) ? embed(i) : undefined;
  };

  // Inside a run of `[`, only its first position (an image after `!`) and its last two
  // can start a directive, so long runs cost one look each.
  let floor = 0;
  const attempt = (p: number, from: number): void => {
    if (p < from || p < floor) return;
    const match = isCandidate(text, p, options.images) ? at(p) : undefined;
    if (match) {
      found.push(match);
      floor = match.end;
    }
  };
  for (let i = text.indexOf("["); i !== -1; ) {
    let runEnd = i + 1;
    while (text.charCodeAt(runEnd) === 91) runEnd++;
    attempt(i, i);
    attempt(runEnd - 2, i + 1);
    attempt(runEnd - 1, Math.max(i + 1, runEnd - 1));
    i = text.indexOf("[", Math.max(runEnd, floor));
  }
  return found;
}

/** Cheap look at the characters around a `[` before trying a real match. */
function isCandidate(text: string, i: number, images: boolean): boolean {
  const next = text.charCodeAt(i + 1);
  if (images && text.charCodeAt(i - 1) === 33) return true;
  if (next === 91) {
    const c = text.charCodeAt(skipBlanks(text, i + 2)) | 32;
    return c === 97 || c === 114;
  }
  return (next | 32) === 101;
}

/**
 * Finds the next `[/embed]` (any ASCII case) that is not inside code. The search runs on
 * the text itself: offsets from a case-mapped copy would be wrong after `İ` and the like.
 */
function closingSearch(text: string, code: CodeRanges): NextIndex {
  const closing = /\[\/embed\]/gi;
  const find = (from: number): number => {
    closing.lastIndex = from;
    return closing.exec(text)?.index ?? -1;
  };
  return new NextIndex(text, (_, from) => {
    let at = find(from);
    while (at !== -1 && !isProse(code, at, at + 8)) at = find(at + 1);
    return at;
  });
}
