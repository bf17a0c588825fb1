/** Where a code span sits in its inline content (`token.meta` of `code_inline`). */
export interface CodeSpanRange {
  /** Offset of the opening backticks in the inline content. */
  start: number;
  /** Offset just past the closing backticks. */
  end: number;
}

/**
 * A code span's text per CommonMark 6.1: line endings become spaces, then one space is
 * stripped from each end if both are spaces and the text is not all spaces (markdown-it
 * strips it from an all-space span too).
 */
export function codeSpanText(raw: string): string {
  const text = raw.replace(/\n/g, " ");
  const strip = text.length >= 2 && text.startsWith(" ") && text.endsWith(" ") && /[^ ]/.test(text);
  return strip ? text.slice(1, -1) : text;
}
