/**
 * `parseReply`: turn an assistant's reply text into visible text plus the directives it
 * carries (protocol.md). Linear in the length of the text.
 */
import { redactSecrets } from "../errors/redact.js";
import type { ParsedReply, ParseOptions, ReplySegment } from "../payload/types.js";
import { assemble, type PlacedMedia } from "./assemble.js";
import { type CodeRanges, findCodeRanges } from "./code-ranges.js";
import { type Found, type ScanOptions, scanDirectives } from "./directive-scan.js";
import { defaultCanvasUrl, startsEmbed } from "./embeds.js";
import { removeDirectives } from "./remove-directives.js";

const NO_CODE: CodeRanges = { bounds: [] };

/**
 * Parse a reply: extract `MEDIA:` references, `[[audio_as_voice]]`, reply tags, `[embed …]`
 * shortcodes and (opt-in) Markdown images outside code, and return the cleaned text with
 * the media in order. Path- or URL-like references a `MEDIA:` line holds that are not
 * valid are listed in `refusedMedia` (the text rules do not change). Never throws.
 */
export function parseReply(raw: string, options: ParseOptions = {}): ParsedReply {
  const media = options.media ?? "extract";
  const scan: ScanOptions = {
    images: options.markdownImages === true && media !== "ignore",
    canvasUrl: options.canvasUrl ?? defaultCanvasUrl,
  };
  if (!mayHoldDirectives(raw, scan.images, media !== "ignore")) return finish(raw.trimEnd(), []);
  const code = findCodeRanges(raw);
  const found = scanDirectives(raw, code, scan);
  const removed = removeDirectives(raw, code, found);
  const assembled = assemble(removed, {
    media,
    isUnsafeRest: (rest) =>
      rest.includes("[") && (scanDirectives(rest, NO_CODE, scan).length > 0 || hasEmbedOpening(rest)),
  });
  const result = finish(assembled.text, assembled.media);
  if (assembled.refused.length > 0)
    result.refusedMedia = assembled.refused.map(({ reference, reason }) => ({
      reference: redactSecrets(reference),
      reason,
    }));
  applyTags(result, found, options.currentMessageId);
  return result;
}

/** Cheap test for anything a directive needs; most replies stop here. */
function mayHoldDirectives(text: string, images: boolean, mediaLines: boolean): boolean {
  return (
    text.includes("[[") ||
    (mediaLines && text.includes("MEDIA:")) ||
    (images && text.includes("![")) ||
    /\[embed/i.test(text)
  );
}

/** The result for the final text and its placed media, before tags are applied. */
function finish(text: string, media: readonly PlacedMedia[]): ParsedReply {
  const mediaUrls: string[] = [];
  const segments = segment(text, media, mediaUrls);
  return { text, mediaUrls, audioAsVoice: false, replyToCurrent: false, embeds: [], segments };
}

/** Cut the text at each media reference (first occurrence of each URL); fill `mediaUrls`. */
function segment(text: string, media: readonly PlacedMedia[], urls: string[]): ReplySegment[] {
  const segments: ReplySegment[] = [];
  // Made for media only: text alone (most replies) has nothing to tell apart.
  const seen = media.length === 0 ? undefined : new Set<string>();
  let from = 0;
  for (const item of media) {
    if (seen === undefined || seen.has(item.url)) continue;
    seen.add(item.url);
    urls.push(item.url);
    const piece = text.slice(from, Math.max(from, item.at)).trim();
    if (piece !== "") segments.push({ type: "text", text: piece });
    segments.push({ type: "media", url: item.url });
    from = Math.max(from, item.at);
  }
  const rest = text.slice(from).trim();
  if (rest !== "") segments.push({ type: "text", text: rest });
  return segments;
}

function applyTags(result: ParsedReply, found: readonly Found[], currentMessageId: string | undefined): void {
  let explicit: string | undefined;
  for (const item of found) {
    if (item.kind === "audio_as_voice") result.audioAsVoice = true;
    else if (item.kind === "reply_to_current") result.replyToCurrent = true;
    else if (item.kind === "reply_to") explicit = item.id;
    else if (item.kind === "embed") result.embeds.push(item.embed);
  }
  const replyToId = explicit ?? (result.replyToCurrent ? currentMessageId : undefined);
  if (replyToId !== undefined) result.replyToId = replyToId;
}

/** Whether text holds an `[embed` opening, closed or not (left-over text must not gain one). */
function hasEmbedOpening(text: string): boolean {
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1))
    if (startsEmbed(text, i)) return true;
  return false;
}
