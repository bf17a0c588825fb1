import type { Root } from "mdast";

/** A unist position (mdast's `node.position`). */
type Position = NonNullable<Root["position"]>;
/** A unist point. */
type Point = Position["start"];

/** Where each source line starts and ends (before its line ending), split as markdown-it splits. */
export interface SourceLines {
  /** Offset of each line's first character. */
  starts: number[];
  /** Offset just past each line's last character, before `\n`, `\r` or `\r\n`. */
  ends: number[];
}

/** Split `text` into lines at `\r\n`, `\r` and `\n` (markdown-it's line breaks). */
export function sourceLines(text: string): SourceLines {
  const starts = [0];
  const ends: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (ch !== 0x0a && ch !== 0x0d) continue;
    ends.push(i);
    if (ch === 0x0d && text.charCodeAt(i + 1) === 0x0a) i += 1;
    starts.push(i + 1);
  }
  ends.push(text.length);
  return { starts, ends };
}

/** The unist point of `offset` on 0-based `line`. */
export function point(lines: SourceLines, line: number, offset: number): Point {
  return { line: line + 1, column: offset - (lines.starts[line] ?? 0) + 1, offset };
}

/**
 * The position of a block on lines `[first, last]` (0-based, inclusive), from `startOffset`
 * (default: the start of the first line) to the end of the last line.
 */
export function blockPosition(
  lines: SourceLines,
  first: number,
  last: number,
  startOffset?: number,
): Position {
  const line = Math.min(last, lines.ends.length - 1);
  return {
    start: point(lines, first, startOffset ?? lines.starts[first] ?? 0),
    end: point(lines, line, lines.ends[line] ?? 0),
  };
}
