import type MarkdownIt from "markdown-it";
import type { StateInline } from "markdown-it";

/**
 * markdown-it's `StateInline.scanDelims` (whether a run of `*`, `_` or `~` can open or close
 * emphasis), with the same result, made cheaper for ASCII neighbours. markdown-it asks two
 * Unicode-class regular expressions about the characters on either side of every run, even
 * a letter; on a reply of a million markers that was a third of the parse. Among ASCII
 * characters, Unicode punctuation and symbols are exactly Markdown's ASCII punctuation, so
 * only a character past ASCII still goes to markdown-it's own test.
 */
export function fastDelimiterScan(md: MarkdownIt): void {
  const { isMdAsciiPunct, isPunctChar, isWhiteSpace } = md.utils;
  const isPunct = (code: number): boolean =>
    code < 0x80 ? isMdAsciiPunct(code) : isPunctChar(String.fromCodePoint(code));
  const Base = md.inline.State;
  class State extends Base {
    override scanDelims(start: number, canSplitWord: boolean): ReturnType<StateInline["scanDelims"]> {
      const src = this.src;
      const max = this.posMax;
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
        nextChar =
          (low & 0xfc00) === 0xdc00 ? 0x10000 + ((nextChar - 0xd800) << 10) + (low - 0xdc00) : 0xfffd;
      } else if ((nextChar & 0xfc00) === 0xdc00) nextChar = 0xfffd;
      const isLastPunctChar = isPunct(lastChar);
      const isNextPunctChar = isPunct(nextChar);
      const isLastWhiteSpace = isWhiteSpace(lastChar);
      const isNextWhiteSpace = isWhiteSpace(nextChar);
      const leftFlanking = !isNextWhiteSpace && (!isNextPunctChar || isLastWhiteSpace || isLastPunctChar);
      const rightFlanking = !isLastWhiteSpace && (!isLastPunctChar || isNextWhiteSpace || isNextPunctChar);
      return {
        can_open: leftFlanking && (canSplitWord || !rightFlanking || isLastPunctChar),
        can_close: rightFlanking && (canSplitWord || !leftFlanking || isNextPunctChar),
        length: count,
      };
    }
  }
  md.inline.State = State;
}
