import type { Root } from "mdast";
import type { Capabilities, MeasuredText, RenderedText, Renderer } from "../adapter/types.js";
import { BLOCK_NESTING, hasFlattened } from "../markdown/deep-nesting.js";
import type { MediaKind } from "../media/types.js";
import { groupAlbums } from "./albums.js";
import { type MeasuredTree, measureTree } from "./measured.js";
import { decideKind } from "./media-kind.js";
import { renderedText } from "./rendered-text.js";
import { splitText } from "./split-text.js";
import type { KindDecision } from "./travel.js";
import type { DeliveryPlan, MediaInput, PartDegradation, PlanInput, PlanPart, TextPart } from "./types.js";

type Decided = { decision: KindDecision | undefined; input: MediaInput };

/**
 * Build the delivery plan (spec: delivery.md, "The plan"). Pure: no I/O, same input →
 * same parts. Text goes first as chunks, unless it fits the caption limit and some media
 * goes natively, in which case it becomes the first media message's (or album's) caption.
 * Then every media input, in order, is one part: a native message, a member of an album,
 * a link (too large to upload, public https source), a hosted link, or a failure at its
 * place. Each media item's way (`via`) is chosen by `input.travel` and the capabilities.
 */
export function planDelivery(input: PlanInput, capabilities: Capabilities, renderer: Renderer): DeliveryPlan {
  const parts: PlanPart[] = [];
  const degraded: PartDegradation[] = [];
  if (input.media.length === 0) {
    // Without media there is no caption to size: splitting measures what it needs.
    addTextParts(input.tree, undefined, capabilities, renderer, parts, degraded);
    return { parts, degraded };
  }
  const measured = measureTree(renderer, input.tree);
  const decided: Decided[] = input.media.map((item) => ({
    input: item,
    decision:
      item.status === "loaded"
        ? decideKind(item.media, capabilities, input.audioAsVoice, input.travel)
        : undefined,
  }));
  const albumKind = ({ decision }: Decided): MediaKind | null =>
    decision?.outcome === "send" && decision.kind !== "voice" ? decision.kind : null;
  const grouping = groupAlbums(decided.map(albumKind), capabilities.album);
  // The caption goes to the first native message; when that is a voice note or a kind whose
  // messages carry no caption on this platform, the text goes first as its own message(s).
  const first = decided.find(({ decision }) => decision?.outcome === "send")?.decision;
  const hasNative =
    first?.outcome === "send" &&
    (first.kind === "voice"
      ? capabilities.voice.caption !== false
      : (capabilities.caption?.kinds ?? [first.kind]).includes(first.kind));

  let caption =
    hasNative && input.tree.children.length > 0
      ? captionFor(input.tree, measured.whole, capabilities, renderer)
      : undefined;
  if (caption === undefined) addTextParts(input.tree, measured, capabilities, renderer, parts, degraded);
  for (const { album, members } of grouping) {
    const part = parts.length;
    const note = (entries: Array<{ from: string; to: string; reason: string }>): void => {
      for (const entry of entries) degraded.push({ part, ...entry });
    };
    if (album) {
      const items = members.flatMap((index) => {
        const { input: item, decision } = decided[index] as Decided;
        if (item.status !== "loaded" || decision?.outcome !== "send" || decision.kind === "voice") return [];
        note(decision.degraded);
        return [{ kind: decision.kind, media: item.media, ...travelled(decision.via) }];
      });
      if (caption) noteFlattened(input.tree, part, degraded);
      parts.push({ type: "album", items, sources: members, ...(caption ? { caption } : {}) });
      caption = undefined;
      continue;
    }
    const { input: item, decision } = decided[members[0] as number] as Decided;
    if (item.status === "failed") parts.push({ type: "failed", error: item.error, sources: members });
    else if (item.status === "link") {
      parts.push(linkPart(item.url, renderer, members));
      note([{ from: "media", to: "link", reason: item.reason }]);
    } else if (decision?.outcome === "failed")
      parts.push({ type: "failed", error: decision.error, sources: members });
    else if (decision?.outcome === "link") {
      parts.push(linkPart(decision.url, renderer, members));
      note(decision.degraded);
    } else if (decision?.outcome === "hosted-link") {
      parts.push({
        type: "media",
        kind: decision.kind,
        media: item.media,
        via: "hosted-link",
        sources: members,
      });
      note(decision.degraded);
    } else if (decision?.outcome === "send") {
      if (caption) noteFlattened(input.tree, part, degraded);
      parts.push({
        type: "media",
        kind: decision.kind,
        media: item.media,
        ...travelled(decision.via),
        sources: members,
        ...(caption ? { caption } : {}),
      });
      note(decision.degraded);
      caption = undefined;
    }
  }
  return { parts, degraded };
}

/** A part's `via`, left out for uploaded bytes (what a part without it means). */
function travelled(via: "upload" | "url" | "hosted"): { via?: "url" | "hosted" } {
  return via === "upload" ? {} : { via };
}

/** The text as chunks, each a text part (a chunk that lost its formatting noted in `degraded`). */
function addTextParts(
  tree: Root,
  measured: MeasuredTree | undefined,
  capabilities: Capabilities,
  renderer: Renderer,
  parts: PlanPart[],
  degraded: PartDegradation[],
): void {
  const limit = capabilities.text.chunkLength ?? capabilities.text.maxLength;
  for (const chunk of splitText(tree, renderer, limit, measured?.whole, measured?.blocks)) {
    if (chunk.flattened)
      degraded.push({
        part: parts.length,
        from: "formatting",
        to: "plain",
        reason: `a formatted piece (such as a link's URL) does not fit ${limit} on its own`,
      });
    else if (tree.data?.flattened !== undefined) noteFlattened(chunk.tree, parts.length, degraded);
    parts.push({
      type: "text",
      tree: chunk.tree,
      text: renderedText(chunk.tree, renderer, chunk.rendered),
      sources: [],
    });
  }
}

/** Note that `part` lost formatting the parser flattened (content nested too deep), when it did. */
function noteFlattened(tree: Root, part: number, degraded: PartDegradation[]): void {
  if (!hasFlattened(tree)) return;
  degraded.push({
    part,
    from: "formatting",
    to: "plain",
    reason: `content nested deeper than ${BLOCK_NESTING} quotes or list levels is kept as plain text`,
  });
}

function captionFor(
  tree: Root,
  whole: MeasuredText,
  capabilities: Capabilities,
  renderer: Renderer,
): RenderedText | undefined {
  if (capabilities.caption === null) return undefined;
  if (whole.length > capabilities.caption.maxLength) return undefined;
  return renderedText(tree, renderer, whole.text);
}

/** A text part that is one link, its URL as its label (an item that goes as a link in the text). */
export function linkPart(url: string, renderer: Renderer, sources: number[]): TextPart {
  const tree: Root = {
    type: "root",
    children: [
      {
        type: "paragraph",
        children: [{ type: "link", url, title: null, children: [{ type: "text", value: url }] }],
      },
    ],
  };
  return { type: "text", tree, text: renderedText(tree, renderer), sources };
}
