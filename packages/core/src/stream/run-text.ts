/**
 * The one model of an agent run's text as it grows: the raw text, where its paragraphs end
 * (outside code fences), each complete paragraph parsed once (its visible text and its
 * tags), and what a live preview shows of it. The preview's text, the raw text it covers,
 * the tags written so far and what a stopped run delivers whole are all read from here,
 * never by parsing the accumulated text again: a run's work is linear in its text.
 */
import { parseReply } from "../parse/parse-reply.js";
import type { ParseOptions } from "../payload/types.js";
import { createLineScan } from "./line-scan.js";
import { type FoundTags, resolveTags, type WrittenTags } from "./written-tags.js";

/** The text of one run. */
export interface RunText {
  /** Append a delta (its lines are scanned; nothing is parsed until asked). */
  push(delta: string): void;
  /** The raw text so far (joined when asked for: a run asks at its end). */
  readonly raw: string;
  /** Its length. */
  readonly length: number;
  /** Its first {@link HEAD} characters (all of it while shorter): what the reply opens with. */
  readonly head: string;
  /** Where the last complete paragraph ends in {@link RunText.raw} (0 before the first). */
  readonly complete: number;
  /**
   * The text a live preview shows: the visible text (directives removed) of the complete
   * paragraphs, then of the complete lines of the paragraph being written, then the line
   * being written unless it may still become a directive. Once it is four times the
   * platform's text limit it stops growing, with a mark that more follows: the preview
   * shows only its head (the final reply is built from the raw text, not from this one).
   */
  shown(): string;
  /** Raw characters the text {@link RunText.shown} last returned covers. */
  covered(): number;
  /** The tags written so far (as a parse of the whole raw text gives them). */
  tags(): WrittenTags;
}

/** Options of {@link createRunText}. */
export interface RunTextOptions {
  /** The platform's text limit (`capabilities.text.maxLength`). Default: no limit, the shown text grows with the reply. */
  limit?: number;
}

/** How many characters of the start {@link RunText.head} keeps: past a reply's longest opening tag. */
const HEAD = 257;

/** How far past the platform's text limit the shown text grows, in multiples of the limit. */
const KEPT_LIMITS = 4;

/** Start the model of one run's text; `options` are the run's parse options (`currentMessageId` names `[[reply_to_current]]`). */
export function createRunText(
  options: ParseOptions,
  { limit = Number.POSITIVE_INFINITY }: RunTextOptions = {},
): RunText {
  const kept = KEPT_LIMITS * limit;
  // One parse per paragraph gives both its visible text and its tags (`[[reply_to_current]]`
  // is resolved when the tags are read: a later explicit tag wins over it).
  const { currentMessageId, ...rest } = options;
  const parseOptions: ParseOptions = { ...rest, media: "strip" };
  const scan = createLineScan();
  const line = createLineWatch();
  const seen: FoundTags = { explicit: undefined, current: false, voice: false };
  /** Where the text not parsed yet starts (a paragraph boundary), and that text. */
  let parsedTo = 0;
  let open = "";
  /** Whether `open` holds a `[[` (a tag may be in it), and its last character (a `[[` may straddle deltas). */
  let openTag = false;
  let openLast = "";
  let head = "";
  /** The visible text of the parsed paragraphs, while it is shown (joined by blank lines). */
  let settled = "";
  /** The text shown once it reached `kept`, and the raw characters it covers. */
  let full: { text: string; covers: number } | undefined;
  /**
   * The visible text of the complete lines of the paragraph being written, for the raw range
   * it was read from, and what goes between it and the line being written.
   */
  let current = { from: 0, to: 0, text: "", gap: "\n" };
  /** The text the preview was last given, and the raw characters it covers. */
  let last = { text: "", covers: 0 };

  /** Parse the raw text up to `to` (a paragraph boundary) once: its tags count; returns its visible text. */
  const parseTo = (to: number): string => {
    const parsed = parseReply(open.slice(0, to - parsedTo), parseOptions);
    open = open.slice(to - parsedTo);
    parsedTo = to;
    openTag = open.includes("[[");
    seen.explicit = parsed.replyToId ?? seen.explicit;
    seen.current ||= parsed.replyToCurrent;
    seen.voice ||= parsed.audioAsVoice;
    return parsed.text;
  };
  const append = (visible: string): void => {
    if (visible !== "") settled = settled === "" ? visible : `${settled}\n\n${visible}`;
  };
  /** Parse the paragraphs completed since the last call, each once. */
  const settle = (): void => {
    const end = scan.breaks.at(-1) ?? 0;
    if (end <= parsedTo) return;
    // Far below the cap, all of them at once (visible text is never longer than raw text);
    // near it, paragraph by paragraph, so that the shown text stops right past it.
    if (full !== undefined || settled.length + (end - parsedTo) < kept) {
      const visible = parseTo(end);
      if (full === undefined) append(visible);
      return;
    }
    for (const at of breaksAfter(scan.breaks, parsedTo)) {
      append(parseTo(at));
      if (settled.length >= kept) {
        full = { text: `${settled}\n\n…`, covers: at };
        // Past the cap only the tags are read: what is left, at once.
        if (end > parsedTo) parseTo(end);
        return;
      }
    }
  };

  return {
    push(delta) {
      scan.push(delta);
      line.push(delta);
      open += delta;
      openTag ||= `${openLast}${delta}`.includes("[[");
      openLast = delta.at(-1) ?? openLast;
      if (head.length < HEAD) head = `${head}${delta.slice(0, HEAD - head.length)}`;
    },
    get raw() {
      return scan.text;
    },
    get length() {
      return scan.length;
    },
    get head() {
      return head;
    },
    get complete() {
      return scan.breaks.at(-1) ?? 0;
    },
    shown() {
      settle();
      if (full !== undefined) {
        last = full;
        return full.text;
      }
      const lineStart = scan.lineStart;
      if (current.from !== parsedTo || current.to !== lineStart) {
        const lines = open.slice(0, lineStart - parsedTo);
        current = {
          from: parsedTo,
          to: lineStart,
          text: lines === "" ? "" : parseReply(lines, parseOptions).text,
          // A blank line inside an open fence is kept before the line being written.
          gap: /\n[ \t]*\n$/.test(lines) ? "\n\n" : "\n",
        };
      }
      const hidden = line.maybeDirective();
      const partial = hidden ? "" : scan.line;
      const paragraph =
        current.text === ""
          ? partial
          : partial === ""
            ? current.text
            : `${current.text}${current.gap}${partial}`;
      const text = (
        settled === "" || paragraph === "" ? settled + paragraph : `${settled}\n\n${paragraph}`
      ).trimEnd();
      const covers = hidden ? lineStart : scan.length;
      if (settled.length + current.text.length + partial.length >= kept) {
        full = { text: `${text}\n\n…`, covers };
        last = full;
        return full.text;
      }
      last = { text, covers };
      return text;
    },
    covered() {
      return last.covers;
    },
    tags() {
      settle();
      const tail = openTag ? parseReply(open, parseOptions) : undefined;
      return resolveTags(
        {
          explicit: tail?.replyToId ?? seen.explicit,
          current: seen.current || tail?.replyToCurrent === true,
          voice: seen.voice || tail?.audioAsVoice === true,
        },
        currentMessageId,
      );
    },
  };
}

/** The breaks after `from`, ascending. */
function* breaksAfter(breaks: readonly number[], from: number): Generator<number> {
  let low = 0;
  let high = breaks.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((breaks[mid] as number) <= from) low = mid + 1;
    else high = mid;
  }
  for (let i = low; i < breaks.length; i++) yield breaks[i] as number;
}

/** What `MEDIA:` is read as: a line that is a start of it, or starts with it, may be a directive. */
const MEDIA = "MEDIA:";

/**
 * Watches the line being written, from the deltas alone: whether it may still become a
 * `MEDIA:` line, a tag or an embed (it is not shown until it cannot).
 */
function createLineWatch(): { push(delta: string): void; maybeDirective(): boolean } {
  /** A `[[` or `[embed` was seen; the last characters seen (one may straddle deltas). */
  let bracket = false;
  let carry = "";
  /** Up to six characters from the first non-space one (`undefined`: only spaces so far), and the length from it. */
  let head: string | undefined;
  let rest = 0;
  const feed = (piece: string): void => {
    if (!bracket) {
      const seen = `${carry}${piece}`;
      bracket = seen.includes("[[") || seen.includes("[embed");
      carry = seen.slice(-5);
    }
    if (head === undefined) {
      const lead = piece.search(/\S/);
      if (lead === -1) return;
      head = piece.slice(lead, lead + MEDIA.length);
      rest = piece.length - lead;
    } else {
      if (head.length < MEDIA.length) head += piece.slice(0, MEDIA.length - head.length);
      rest += piece.length;
    }
  };
  return {
    push(delta) {
      const newline = delta.lastIndexOf("\n");
      if (newline === -1) return feed(delta);
      bracket = false;
      carry = "";
      head = undefined;
      rest = 0;
      feed(delta.slice(newline + 1));
    },
    maybeDirective() {
      if (bracket || head === undefined) return true;
      return head === MEDIA || (rest < MEDIA.length && MEDIA.startsWith(head));
    },
  };
}
