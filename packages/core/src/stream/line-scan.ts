/**
 * Where a streamed text may be cut, read as it grows: paragraph boundaries and line ends
 * outside code fences. Each line is read once, when it completes, and only the deltas are
 * searched for newlines: the text is never read whole on the way (V8 copies a string built
 * by `+=` in full whenever it is searched or sliced), so a run's text costs linear work
 * however many deltas it comes in and however long a fence or a line grows.
 */

/** Where a text may be cut. */
export interface Cuts {
  /** After a blank line or a closing fence line, outside fences: a paragraph boundary. */
  breaks: number[];
  /** After any complete line outside fences. */
  lineEnds: number[];
  /** Start of a fence still open at the end of the text. */
  openFence: number | undefined;
}

/** A text read as it grows. */
export interface LineScan {
  /** Append a delta. */
  push(delta: string): void;
  /** The text pushed so far (joined when asked for). */
  readonly text: string;
  /** Its length. */
  readonly length: number;
  /** Paragraph boundaries so far (offsets in the text, ascending). */
  readonly breaks: readonly number[];
  /** Complete line ends outside fences so far (ascending). */
  readonly lineEnds: readonly number[];
  /** Where the line being written starts (after the last newline). */
  readonly lineStart: number;
  /** The line being written (the text from {@link LineScan.lineStart}). */
  readonly line: string;
  /** Start of a fence still open at the end of the text (an unfinished line opening one counts). */
  openFence(): number | undefined;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** Start reading a text (empty, or `text`). */
export function createLineScan(text = ""): LineScan {
  const breaks: number[] = [];
  const lineEnds: number[] = [];
  let fence: { marker: string; start: number } | undefined;
  let pieces: string[] = [];
  let length = 0;
  let start = 0;
  let line = "";
  /** Read the complete line `content`, which ends (before its newline) at `end`. */
  const read = (content: string, end: number): void => {
    const next = end + 1;
    if (fence) {
      if (closesFence(content, fence.marker)) {
        fence = undefined;
        breaks.push(next);
        lineEnds.push(next);
      }
    } else {
      const open = FENCE_OPEN.exec(content);
      if (open?.[1] && !(open[1].startsWith("`") && open[2]?.includes("`")))
        fence = { marker: open[1], start };
      else {
        if (content.trim() === "") breaks.push(next);
        lineEnds.push(next);
      }
    }
    start = next;
  };
  const scan: LineScan = {
    push(delta) {
      if (delta === "") return;
      const base = length;
      pieces.push(delta);
      length += delta.length;
      let from = 0;
      for (let newline = delta.indexOf("\n"); newline !== -1; newline = delta.indexOf("\n", from)) {
        read(line + delta.slice(from, newline), base + newline);
        line = "";
        from = newline + 1;
      }
      line += from === 0 ? delta : delta.slice(from);
    },
    get text() {
      if (pieces.length > 1) pieces = [pieces.join("")];
      return pieces[0] ?? "";
    },
    get length() {
      return length;
    },
    breaks,
    lineEnds,
    get lineStart() {
      return start;
    },
    get line() {
      return line;
    },
    openFence() {
      if (fence) return fence.start;
      // An unfinished last line that starts a fence is treated as one.
      return FENCE_OPEN.test(line) ? start : undefined;
    },
  };
  scan.push(text);
  return scan;
}

/** Scan `text` at once for places where a block may end. */
export function findCuts(text: string): Cuts {
  const scan = createLineScan(text);
  return { breaks: [...scan.breaks], lineEnds: [...scan.lineEnds], openFence: scan.openFence() };
}

function closesFence(line: string, marker: string): boolean {
  const match = FENCE_CLOSE.exec(line);
  return match?.[1] !== undefined && match[1][0] === marker[0] && match[1].length >= marker.length;
}
