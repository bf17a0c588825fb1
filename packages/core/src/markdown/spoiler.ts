import type MarkdownIt from "markdown-it";
import type { Delimiter, StateInline } from "markdown-it";

const PIPE = 0x7c;

/**
 * markdown-it plugin for `||spoiler||`: pairs of `||` delimiters, matched left to right
 * like strikethrough's `~~` (through markdown-it's delimiter balancing, so they nest
 * properly with emphasis and never cross a link or code span), into `spoiler_open` /
 * `spoiler_close` tokens. Unlike `~~`, a `||` may open or close next to whitespace; an
 * unpaired `||`, an empty `||||`, and escaped `\|\|` stay text.
 */
export function spoilerPlugin(md: MarkdownIt): void {
  md.inline.ruler.at("text", textUntilPipe);
  md.inline.ruler.after("strikethrough", "spoiler", tokenize);
  md.inline.ruler2.after("strikethrough", "spoiler", (state) => {
    postProcess(state, state.delimiters);
    for (const meta of state.tokens_meta) if (meta?.delimiters) postProcess(state, meta.delimiters);
    return false;
  });
}

/** markdown-it's `text` rule, also stopping at `|` so the spoiler rule sees it. */
function textUntilPipe(state: StateInline, silent: boolean): boolean {
  const { src, posMax } = state;
  let pos = state.pos;
  while (pos < posMax && !isTerminator(src.charCodeAt(pos))) pos += 1;
  if (pos === state.pos) return false;
  if (!silent) state.pending += src.slice(state.pos, pos);
  state.pos = pos;
  return true;
}

/** The characters markdown-it's own `text` rule stops at, plus `|`. */
function isTerminator(ch: number): boolean {
  switch (ch) {
    case 0x0a: // \n
    case 0x21: // !
    case 0x23: // #
    case 0x24: // $
    case 0x25: // %
    case 0x26: // &
    case 0x2a: // *
    case 0x2b: // +
    case 0x2d: // -
    case 0x3a: // :
    case 0x3c: // <
    case 0x3d: // =
    case 0x3e: // >
    case 0x40: // @
    case 0x5b: // [
    case 0x5c: // \
    case 0x5d: // ]
    case 0x5e: // ^
    case 0x5f: // _
    case 0x60: // `
    case 0x7b: // {
    case PIPE:
    case 0x7d: // }
    case 0x7e: // ~
      return true;
    default:
      return false;
  }
}

function tokenize(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== PIPE) return false;
  let end = state.pos;
  while (end < state.posMax && state.src.charCodeAt(end) === PIPE) end += 1;
  const length = end - state.pos;
  if (length < 2) return false;
  for (let i = 1; i < length; i += 2) {
    state.push("text", "", 0).content = "||";
    state.delimiters.push({
      marker: PIPE,
      length: 0,
      token: state.tokens.length - 1,
      end: -1,
      open: true,
      close: true,
    });
  }
  // An odd run keeps its last `|` as text: `||a|||` is a spoiler and a `|`.
  if (length % 2 === 1) state.push("text", "", 0).content = "|";
  state.pos = end;
  return true;
}

/** Turn matched, non-empty delimiter pairs into spoiler tokens. */
function postProcess(state: StateInline, delimiters: Delimiter[]): void {
  for (const opener of delimiters) {
    if (opener.marker !== PIPE || opener.end === -1) continue;
    const closer = delimiters[opener.end];
    if (closer === undefined || closer.token === opener.token + 1) continue;
    const open = state.tokens[opener.token];
    const close = state.tokens[closer.token];
    if (open === undefined || close === undefined) continue;
    open.type = "spoiler_open";
    open.nesting = 1;
    open.markup = "||";
    open.content = "";
    close.type = "spoiler_close";
    close.nesting = -1;
    close.markup = "||";
    close.content = "";
  }
}
