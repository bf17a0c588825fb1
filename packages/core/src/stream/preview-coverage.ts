/**
 * What the live preview of an agent run shows, in terms of the raw reply: when the run stops
 * (an `error` or an abort) and the preview is cancelled, its message stays on screen, so the
 * receipt's `undelivered` must hold only what comes after it (docs/streaming.md).
 */
import type { CancelledPreview } from "../adapter/types.js";
import { parseReply } from "../parse/parse-reply.js";
import type { ParseOptions } from "../payload/types.js";
import type { RunText } from "./run-text.js";

/** Tracks how much of the raw reply each text the preview was given covers. */
export interface PreviewCoverage {
  /** The preview's `updateFrom` source: the text shown, noting the raw length it covers. */
  source(): string;
  /**
   * What the person has not seen once the preview was cancelled (`left`): the raw text after
   * what the message shows, and the media the shown part names (a preview never shows
   * media). Without a message on screen, or when it shows only a head, the whole reply.
   */
  unseen(left: CancelledPreview | undefined): { text: string; mediaUrls: string[] };
}

/** Start tracking the preview of the run whose text is `run`. */
export function createPreviewCoverage(run: RunText, options: ParseOptions): PreviewCoverage {
  // The text the message shows is known by its length: the accumulated shown length
  // never shrinks, so a later text of the same length covers at least as much (what is
  // reported unseen may repeat a little, never miss any). One entry per edit.
  const covers = new Map<number, number>();
  return {
    source() {
      const text = run.shown();
      if (!covers.has(text.length)) covers.set(text.length, run.covered());
      return text;
    },
    unseen(left) {
      const raw = run.raw;
      const shown =
        left?.message === undefined || left.truncated ? 0 : (covers.get(left.markdown.length) ?? 0);
      // Parsed once, when the run stops.
      const mediaUrls = shown === 0 ? [] : parseReply(raw.slice(0, shown), options).mediaUrls;
      return { text: raw.slice(shown), mediaUrls };
    },
  };
}
