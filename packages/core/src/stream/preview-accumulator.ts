/**
 * The text a live preview shows while the reply is written: the visible text (directives
 * removed) of the paragraphs written, each parsed once when it completes, then the
 * complete lines of the current paragraph, then the line being written unless it may be a
 * directive in the making. Work per delta stays bounded by the current paragraph.
 */
import { parseReply } from "../parse/parse-reply.js";
import type { ParseOptions } from "../payload/types.js";
import { findCuts } from "./block-splitter.js";

/** Accumulates one reply's text deltas into the text its live preview shows. */
export interface PreviewAccumulator {
  /** Append a delta; returns the text to show. */
  push(delta: string): string;
}

/** A partial line that may still become a `MEDIA:` line, a tag or an embed is not shown yet. */
const MAYBE_DIRECTIVE = /^\s*(M(E(D(I(A:?)?)?)?)?$|MEDIA:)|\[\[|\[embed/;

/** Create the preview accumulator of one reply. */
export function createPreviewAccumulator(options: ParseOptions): PreviewAccumulator {
  const visible = (text: string): string => parseReply(text, { ...options, media: "strip" }).text;
  // Only the text after the last settled paragraph is kept and scanned: re-reading a growing
  // whole reply on every delta would make a long reply quadratic.
  let open = "";
  let settled = "";
  let current = "";
  let gap = "\n";
  return {
    push(delta) {
      open += delta;
      if (delta.includes("\n")) {
        const cut = findCuts(open).breaks.at(-1);
        if (cut !== undefined) {
          const paragraphs = visible(open.slice(0, cut));
          if (paragraphs !== "") settled = settled === "" ? paragraphs : `${settled}\n\n${paragraphs}`;
          open = open.slice(cut);
        }
        const lines = open.slice(0, open.lastIndexOf("\n") + 1);
        current = visible(lines);
        // A blank line inside an open fence is kept before the line being written.
        gap = /\n[ \t]*\n$/.test(lines) ? "\n\n" : "\n";
      }
      const partial = open.slice(open.lastIndexOf("\n") + 1);
      const paragraph = [current, MAYBE_DIRECTIVE.test(partial) ? "" : partial].filter((part) => part !== "");
      return [settled, paragraph.join(gap)]
        .filter((part) => part !== "")
        .join("\n\n")
        .trimEnd();
    },
  };
}
