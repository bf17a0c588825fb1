/**
 * Strict parsers for Telegram's `parse_mode: "MarkdownV2"` and legacy `"Markdown"`, written
 * from the Bot API's formatting rules (and tdlib's behaviour) independently of any sender.
 * MarkdownV2 (with `>` quotes and `**>` … `||` expandable quotes): every reserved character (`_*[]()~\`>#+-=|{}.!`) outside an entity's markup
 * must be escaped with `\`, or Telegram answers 400 "can't parse entities: Character '.' is
 * reserved and must be escaped with the preceding '\'"; inside code and pre only `` ` `` and
 * `\` are escaped, inside a link's `(...)` only `)` and `\`. Legacy Markdown: `*bold*`,
 * `_italic_`, `` `code` ``, ```` ```pre``` ````, `[text](url)`, no nesting, `\` escapes only
 * `_*`[`. Error offsets are UTF-8 byte offsets into the source, as Telegram reports them.
 */
import { EntityParseError, type ParsedText, type TextEntity } from "./html-entities.js";

const RESERVED = new Set("_*[]()~`>#+-=|{}.!");

/** Entity names in Telegram's "Can't find end of X entity" errors. */
const NAMES: Record<string, string> = {
  bold: "Bold",
  italic: "Italic",
  underline: "Underline",
  strikethrough: "Strikethrough",
  spoiler: "Spoiler",
  code: "Code",
  pre: "Pre",
  text_link: "TextUrl",
  custom_emoji: "CustomEmoji",
};

interface Open {
  type: string;
  /** Start in the visible text (UTF-16 units). */
  start: number;
  /** Start in the source, for errors. */
  at: number;
  language?: string;
}

/** Shared state of both parsers: source, visible text, entities, errors with byte offsets. */
class Cursor {
  i = 0;
  text = "";
  readonly entities: TextEntity[] = [];
  constructor(readonly src: string) {}

  fail(message: string, at = this.i): never {
    throw new EntityParseError(`${message} at byte offset ${Buffer.byteLength(this.src.slice(0, at))}`);
  }

  /** Record an entity from `open` to the current end of text (Telegram drops empty ones). */
  push(open: Open, url?: string): void {
    const length = this.text.length - open.start;
    if (length === 0) return;
    const entity: TextEntity = { type: open.type, offset: open.start, length };
    if (url !== undefined) entity.url = url;
    if (open.language) entity.language = open.language;
    this.entities.push(entity);
  }

  done(): ParsedText {
    this.entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
    return { text: this.text, entities: this.entities };
  }

  /** Read a link target `(...)` after `]` (undefined when none), unescaping `\)` and `\\` when `escapes`. */
  url(escapes: boolean): string | undefined {
    if (this.src[this.i] !== "(") return undefined;
    this.i++;
    let url = "";
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined) this.fail("Can't find end of a URL");
      this.i++;
      if (c === ")") return url;
      if (escapes && c === "\\" && this.src[this.i] !== undefined) {
        url += this.src[this.i];
        this.i++;
      } else url += c;
    }
  }
}

/** A link entity's URL, or undefined when Telegram would drop it (not an http(s)/tg URL). */
function linkUrl(url: string): string | undefined {
  return /^(https?|tg|ftp):\/\/\S+$/i.test(url) || /^[\w.-]+\.[a-z]{2,}(\/\S*)?$/i.test(url)
    ? url
    : undefined;
}

/** Parse MarkdownV2 strictly; throws {@link EntityParseError} where Telegram answers 400. */
export function parseMarkdownV2(src: string): ParsedText {
  const cur: Cursor = new Cursor(src);
  const stack: Open[] = [];
  let quote: Open | undefined;
  while (cur.i < src.length) {
    const c = src[cur.i] as string;
    const next = src[cur.i + 1];
    const top = stack.at(-1);
    const atLineStart = cur.i === 0 || src[cur.i - 1] === "\n";
    if (atLineStart && !top && quote && c !== ">") {
      // The quote ends with the last line that starts with ">" (its newline stays outside).
      cur.text = cur.text.endsWith("\n") ? cur.text.slice(0, -1) : cur.text;
      cur.push(quote);
      cur.text += "\n";
      quote = undefined;
    }
    if (c === "\\" && next !== undefined && next.charCodeAt(0) >= 1 && next.charCodeAt(0) <= 126) {
      cur.text += next;
      cur.i += 2;
      continue;
    }
    if (top && (top.type === "code" || top.type === "pre")) {
      const fence = top.type === "pre" ? "```" : "`";
      if (src.startsWith(fence, cur.i)) {
        cur.i += fence.length;
        stack.pop();
        cur.push(top);
      } else {
        cur.text += c;
        cur.i++;
      }
      continue;
    }
    if (!RESERVED.has(c)) {
      cur.text += c;
      cur.i++;
      continue;
    }
    if (top && endsEntity(top.type, c, next)) {
      cur.i += top.type === "underline" || top.type === "spoiler" ? 2 : 1;
      stack.pop();
      if (top.type === "text_link" || top.type === "custom_emoji") {
        const target = cur.url(true);
        const url = linkUrl(target ?? cur.text.slice(top.start));
        if (top.type === "text_link" && url !== undefined) cur.push(top, url);
      } else cur.push(top);
      continue;
    }
    if (c === ">" && atLineStart && !top) {
      quote ??= { type: "blockquote", start: cur.text.length, at: cur.i };
      cur.i++;
      continue;
    }
    if (src.startsWith("**>", cur.i) && atLineStart && !top && !quote) {
      quote = { type: "expandable_blockquote", start: cur.text.length, at: cur.i };
      cur.i += 3;
      continue;
    }
    const lineEnd = src[cur.i + 2] === undefined || src[cur.i + 2] === "\n";
    if (quote?.type === "expandable_blockquote" && !top && src.startsWith("||", cur.i) && lineEnd) {
      // `||` at the end of its last line closes an expandable quote.
      cur.i += 2;
      cur.push(quote);
      quote = undefined;
      continue;
    }
    const open = opening(src, cur.i);
    if (!open) cur.fail(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
    if (stack.some((o) => o.type === open.type)) cur.fail(`Can't parse nested ${NAMES[open.type]} entity`);
    stack.push({ type: open.type, start: cur.text.length, at: cur.i, language: open.language });
    cur.i += open.length;
  }
  const unclosed = stack.at(-1);
  if (unclosed) cur.fail(`Can't find end of ${NAMES[unclosed.type]} entity`, unclosed.at);
  if (quote) cur.push(quote);
  return cur.done();
}

function endsEntity(type: string, c: string, next: string | undefined): boolean {
  if (type === "bold") return c === "*";
  if (type === "italic") return c === "_" && next !== "_";
  if (type === "underline") return c === "_" && next === "_";
  if (type === "strikethrough") return c === "~";
  if (type === "spoiler") return c === "|" && next === "|";
  return (type === "text_link" || type === "custom_emoji") && c === "]";
}

/** The entity a reserved character opens at `i`, with the markup's length. */
function opening(src: string, i: number): { type: string; length: number; language?: string } | undefined {
  const c = src[i];
  const next = src[i + 1];
  if (c === "*") return { type: "bold", length: 1 };
  if (c === "_") return next === "_" ? { type: "underline", length: 2 } : { type: "italic", length: 1 };
  if (c === "~") return { type: "strikethrough", length: 1 };
  if (c === "|" && next === "|") return { type: "spoiler", length: 2 };
  if (c === "[") return { type: "text_link", length: 1 };
  if (c === "!" && next === "[") return { type: "custom_emoji", length: 2 };
  if (c !== "`") return undefined;
  if (!src.startsWith("```", i)) return { type: "code", length: 1 };
  const newline = src.indexOf("\n", i + 3);
  const header = newline < 0 ? "" : src.slice(i + 3, newline);
  // ```lang\n: the first line names the language when it has no spaces or markup.
  if (/^[^\s`\\]+$/.test(header)) return { type: "pre", length: 3 + header.length + 1, language: header };
  return { type: "pre", length: 3 };
}

const LEGACY: Record<string, string> = { "*": "bold", _: "italic", "`": "code" };

/** Parse legacy Markdown strictly; throws {@link EntityParseError} where Telegram answers 400. */
export function parseLegacyMarkdown(src: string): ParsedText {
  const cur: Cursor = new Cursor(src);
  while (cur.i < src.length) {
    const c = src[cur.i] as string;
    if (c === "\\" && "_*`[".includes(src[cur.i + 1] ?? "x")) {
      cur.text += src[cur.i + 1];
      cur.i += 2;
      continue;
    }
    const at = cur.i;
    if (src.startsWith("```", at)) {
      const end = src.indexOf("```", at + 3);
      if (end < 0) cur.fail("Can't find end of the entity starting", at);
      let body = src.slice(at + 3, end);
      const language = /^([^\s`]+)\n/.exec(body)?.[1];
      if (language) body = body.slice(language.length + 1);
      const open: Open = { type: "pre", start: cur.text.length, at, language };
      cur.text += body;
      cur.push(open);
      cur.i = end + 3;
      continue;
    }
    const type = LEGACY[c];
    if (type) {
      const end = src.indexOf(c, at + 1);
      if (end < 0) cur.fail("Can't find end of the entity starting", at);
      const open: Open = { type, start: cur.text.length, at };
      cur.text += src.slice(at + 1, end);
      cur.push(open);
      cur.i = end + 1;
      continue;
    }
    if (c === "[") {
      const close = src.indexOf("]", at + 1);
      if (close < 0) cur.fail("Can't find end of the entity starting", at);
      const open: Open = { type: "text_link", start: cur.text.length, at };
      cur.text += src.slice(at + 1, close);
      cur.i = close + 1;
      const url = cur.url(false);
      const target = url === undefined ? undefined : linkUrl(url);
      if (target !== undefined) cur.push(open, target);
      continue;
    }
    cur.text += c;
    cur.i++;
  }
  return cur.done();
}
