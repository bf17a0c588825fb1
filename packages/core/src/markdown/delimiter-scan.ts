import type MarkdownIt from "markdown-it";
import type { StateInline } from "markdown-it";

/** The character tests a delimiter run reads (markdown-it's `utils`). */
export type DelimiterUtils = Pick<MarkdownIt["utils"], "isMdAsciiPunct" | "isPunctChar" | "isWhiteSpace">;

/** {@link delimiterRun}'s answer: the run's length, shifted past the two flags. */
export const CAN_OPEN = 1;
/** {@link delimiterRun}'s answer: the run may close emphasis. */
export const CAN_CLOSE = 2;

/**
 * markdown-it's `StateInline.scanDelims` (whether the run of `*`, `_` or `~` at `start` can
 * open or close emphasis), with the same result, made cheaper for ASCII neighbours: packed
 * as `length << 2 | CAN_OPEN | CAN_CLOSE`, so a run costs no object. markdown-it asks two
 * Unicode-class regular expressions about the characters on either side of every run, even
 * a letter; on a reply of a million markers that was a third of the parse. Among ASCII
 * characters, Unicode punctuation and symbols are exactly Markdown's ASCII punctuation, so
 * only a character past ASCII still goes to markdown-it's own test.
 */
export function delimiterRun(
  src: string,
  start: number,
  max: number,
  canSplitWord: boolean,
  utils: DelimiterUtils,
): number {
  const marker = src.charCodeAt(start);
  let lastChar = 0x20;
  if (start === 1) {
    lastChar = src.charCodeAt(0);
    if ((lastChar & 0xf800) === 0xd800) lastChar = 0xfffd;
  } else if (start > 1) {
    lastChar = src.charCodeAt(start - 1);
    if ((lastChar & 0xfc00) === 0xdc00) {
      const high = src.charCodeAt(start - 2);
      lastChar =
        (high & 0xfc00) === 0xd800 ? 0x10000 + ((high - 0xd800) << 10) + (lastChar - 0xdc00) : 0xfffd;
    } else if ((lastChar & 0xfc00) === 0xd800) lastChar = 0xfffd;
  }
  let pos = start;
  while (pos < max && src.charCodeAt(pos) === marker) pos += 1;
  const count = pos - start;
  let nextChar = pos < max ? src.charCodeAt(pos) : 0x20;
  if ((nextChar & 0xfc00) === 0xd800) {
    const low = src.charCodeAt(pos + 1);
    nextChar = (low & 0xfc00) === 0xdc00 ? 0x10000 + ((nextChar - 0xd800) << 10) + (low - 0xdc00) : 0xfffd;
  } else if ((nextChar & 0xfc00) === 0xdc00) nextChar = 0xfffd;
  const isLastPunctChar = isPunct(lastChar, utils);
  const isNextPunctChar = isPunct(nextChar, utils);
  const isLastWhiteSpace = utils.isWhiteSpace(lastChar);
  const isNextWhiteSpace = utils.isWhiteSpace(nextChar);
  const leftFlanking = !isNextWhiteSpace && (!isNextPunctChar || isLastWhiteSpace || isLastPunctChar);
  const rightFlanking = !isLastWhiteSpace && (!isLastPunctChar || isNextWhiteSpace || isNextPunctChar);
  const canOpen = leftFlanking && (canSplitWord || !rightFlanking || isLastPunctChar);
  const canClose = rightFlanking && (canSplitWord || !leftFlanking || isNextPunctChar);
  return (count << 2) | (canOpen ? CAN_OPEN : 0) | (canClose ? CAN_CLOSE : 0);
}

function isPunct(code: number, utils: DelimiterUtils): boolean {
  return code < 0x80 ? utils.isMdAsciiPunct(code) : utils.isPunctChar(String.fromCodePoint(code));
}

/** Give markdown-it's inline state the cheaper {@link delimiterRun}. */
export function fastDelimiterScan(md: MarkdownIt): void {
  const utils = md.utils;
  const Base = md.inline.State;
  class State extends Base {
    override scanDelims(start: number, canSplitWord: boolean): ReturnType<StateInline["scanDelims"]> {
      const run = delimiterRun(this.src, start, this.posMax, canSplitWord, utils);
      return { can_open: (run & CAN_OPEN) !== 0, can_close: (run & CAN_CLOSE) !== 0, length: run >> 2 };
    }
  }
  md.inline.State = State;
}
