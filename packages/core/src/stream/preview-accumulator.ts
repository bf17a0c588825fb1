/**
 * The text a live preview shows while the reply is written: the visible text (directives
 * removed) of the paragraphs written, each parsed once when it completes, then the
 * complete lines of the current paragraph, then the line being written unless it may be a
 * directive in the making. Work per delta stays bounded by the current paragraph; the whole
 * text is joined only when asked for (once per edit the preview sends), so a long reply
 * costs linear work however many deltas it comes in. Once the text shown is four times
 * the platform's text limit (`limit`), it stops growing: the preview shows only its head,
 * so what comes later is not read at all (the final reply is built from the deltas, not
 * from this text).
 */
import { parseReply } from "../parse/parse-reply.js";
import type { ParseOptions } from "../payload/types.js";
import { findCuts } from "./block-splitter.js";

/** Accumulates one reply's text deltas into the text its live preview shows. */
export interface PreviewAccumulator {
  /** Append a delta. Builds nothing: the text is joined by {@link PreviewAccumulator.text}. */
  push(delta: string): void;
  /** The text to show for the deltas pushed so far (joined at most once between pushes). */
  text(): string;
}

/** Options of {@link createPreviewAccumulator}. */
export interface PreviewAccumulatorOptions {
  /** The platform's text limit (`capabilities.text.maxLength`). Default: no limit, the text grows with the reply. */
  limit?: number;
}

/** How far past the platform's text limit the text grows, in multiples of the limit. */
const KEPT_LIMITS = 4;

/** A partial line that may still become a `MEDIA:` line, a tag or an embed is not shown yet. */
export const MAYBE_DIRECTIVE = /^\s*(M(E(D(I(A:?)?)?)?)?$|MEDIA:)|\[\[|\[embed/;

/** Create the preview accumulator of one reply. */
export function createPreviewAccumulator(
  options: ParseOptions,
  { limit = Number.POSITIVE_INFINITY }: PreviewAccumulatorOptions = {},
): PreviewAccumulator {
  const kept = KEPT_LIMITS * limit;
  const visible = (text: string): string => parseReply(text, { ...options, media: "strip" }).text;
  // Only the text after the last settled paragraph is kept and scanned: re-reading a growing
  // whole reply on every delta would make a long reply quadratic.
  const settled: string[] = [];
  let open = "";
  let current = "";
  let partial = "";
  let gap = "\n";
  let shown: string | undefined = "";
  let settledLength = 0;
  /** The text once it is `kept` long: later deltas are not read. */
  let full: string | undefined;
  const text = (): string => {
    if (full !== undefined) return full;
    if (shown === undefined) {
      const paragraph = [current, MAYBE_DIRECTIVE.test(partial) ? "" : partial].filter((part) => part !== "");
      shown = [...settled, paragraph.join(gap)]
        .filter((part) => part !== "")
        .join("\n\n")
        .trimEnd();
    }
    return shown;
  };
  return {
    push(delta) {
      if (full !== undefined) return;
      open += delta;
      shown = undefined;
      if (!delta.includes("\n")) {
        partial += delta;
        return;
      }
      const cut = findCuts(open).breaks.at(-1);
      if (cut !== undefined) {
        const paragraphs = visible(open.slice(0, cut));
        if (paragraphs !== "") settled.push(paragraphs);
        settledLength += paragraphs.length + 2;
        open = open.slice(cut);
      }
      const lines = open.slice(0, open.lastIndexOf("\n") + 1);
      current = visible(lines);
      // A blank line inside an open fence is kept before the line being written.
      gap = /\n[ \t]*\n$/.test(lines) ? "\n\n" : "\n";
      partial = open.slice(lines.length);
      // The head shown is cut well before this: the text stops here, with a mark that more follows.
      if (settledLength + current.length >= kept) full = `${text()}\n\n…`;
    },
    text,
  };
}
