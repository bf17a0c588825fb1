/**
 * The plain-text `body` every `m.room.message` must carry, derived from the renderer's own
 * `formatted_body` (a client without HTML shows it; notifications and search read it): one
 * line per paragraph line, a blank line between blocks, list items as `- ` / `3. ` lines
 * indented two spaces per level, quotes as `> ` lines, code blocks verbatim, a link as
 * `label (url)` when they differ. A spoiler is `[Spoiler]`: the spec asks that the fallback
 * not show the hidden text. Reads only the markup {@link renderMatrixHtml} writes.
 */
import { unescapeHtml } from "@outbox/core";

/** A tag at the scan position (sticky): closing slash, name, attributes. */
const TAG = /<(\/?)([a-z][a-z0-9]*)((?:\s[^>]*)?)>/y;
const BLOCKS = new Set(["p", "pre", "blockquote", "ul", "ol", "hr", "h1", "h2", "h3", "h4", "h5", "h6"]);
/** Inline styles: the body shows their text only, so their tags are skipped without a frame. */
const STYLES = new Set(["em", "strong", "del", "code"]);
/** What the body does with a tag: its name, whether it closes, whether it is a block or a style. */
interface TagKind {
  tag: string;
  closing: boolean;
  block: boolean;
  style: boolean;
}

function tagKind(tag: string, closing: boolean): TagKind {
  return { tag, closing, block: BLOCKS.has(tag), style: STYLES.has(tag) };
}

/**
 * Tags without attributes (`/em`, `br`: what lies between `<` and `>`), read without a
 * regular expression or a copy of the name, as the renderer writes most of its tags: by
 * {@link bareKey} (whether it closes, its first letter and length), the few sharing one.
 */
const BARE_TAGS: Array<TagKind[] | undefined> = Array.from(
  { length: bareKey(true, 127, 15) + 1 },
  () => undefined,
);
for (const tag of [...BLOCKS, ...STYLES, "br", "li", "a", "span"])
  for (const closing of [false, true]) {
    const key = bareKey(closing, tag.charCodeAt(0), tag.length);
    BARE_TAGS[key] = [...(BARE_TAGS[key] ?? []), tagKind(tag, closing)];
  }

/** A number for a bare tag's shape, one per shape (an ASCII letter, at most 15 units long). */
function bareKey(closing: boolean, first: number, length: number): number {
  return (first * 16 + length) * 2 + (closing ? 1 : 0);
}

interface Frame {
  tag: string;
  /** Next number of an `ol`. */
  next?: number;
  /** For `a`: its target, and the text written inside it (to compare with the target). */
  href?: string;
  label?: string;
}

/**
 * The plain-text fallback of Matrix HTML written by the renderer. One pass: the text is only
 * appended to, never read back (reading the end of a string built by appending copies all
 * of it), so the work is linear in the HTML. A `<` that starts no tag is skipped.
 */
export function htmlToBody(html: string): string {
  const body = new Body();
  for (let at = 0; at < html.length; ) {
    if (html.charCodeAt(at) !== 60 /* < */) {
      let end = html.indexOf("<", at);
      if (end < 0) end = html.length;
      const text = html.slice(at, end);
      if (body.spoiler === 0) body.write(text.includes("&") ? unescapeHtml(text) : text);
      at = end;
      continue;
    }
    const close = bareTagEnd(html, at);
    let kind = close < 0 ? undefined : bareTag(html, at, close);
    let attributes = "";
    if (kind !== undefined) at = close + 1;
    else {
      TAG.lastIndex = at;
      const match = TAG.exec(html);
      if (match === null) {
        at += 1;
        continue;
      }
      at = TAG.lastIndex;
      kind = tagKind(match[2] ?? "", match[1] === "/");
      attributes = match[3] ?? "";
    }
    if (kind.style) continue;
    if (kind.closing) body.close(kind);
    else body.open(kind, attributes);
  }
  return body.out.trimEnd();
}

/**
 * The last body {@link bodyOf} converted, of a text small enough to be one event (the event
 * limit is 65,536 bytes); a larger text, weighed before it is split, is not kept.
 */
let last = { html: "", body: "" };
const REMEMBERED_CHARS = 65_536;

/**
 * {@link htmlToBody}, remembering the last conversion: a chunk is converted when the planner
 * weighs it and again when the transport builds its event, one right after the other, so
 * the second is read from here.
 */
export function bodyOf(html: string): string {
  if (html === last.html) return last.body;
  const body = htmlToBody(html);
  if (html.length <= REMEMBERED_CHARS) last = { html, body };
  return body;
}

/** The bare tag written from `<` at `at` to `>` at `close`, if it is one. */
function bareTag(html: string, at: number, close: number): TagKind | undefined {
  const closing = html.charCodeAt(at + 1) === 47; /* / */
  const name = closing ? at + 2 : at + 1;
  const first = html.charCodeAt(name);
  const kinds = first < 128 ? BARE_TAGS[bareKey(closing, first, close - name)] : undefined;
  if (kinds !== undefined) for (const kind of kinds) if (html.startsWith(kind.tag, name)) return kind;
  return undefined;
}

/** The longest bare tag (`/blockquote`), plus one for the `>`. */
const BARE_TAG_SPAN = 12;

/** Where the `>` of a tag at `at` is, if near enough for a bare tag (-1 if not): never a scan to the end. */
function bareTagEnd(html: string, at: number): number {
  const last = Math.min(html.length - 1, at + BARE_TAG_SPAN);
  for (let index = at + 1; index <= last; index += 1) if (html.charCodeAt(index) === 62) return index;
  return -1;
}

/** The body being written, with the elements open around the scan position. */
class Body {
  out = "";
  /** How many line breaks `out` ends with. */
  trailing = 0;
  spoiler = 0;
  quotes = 0;
  /** `> ` once per open quote. */
  prefix = "";
  readonly stack: Frame[] = [];
  readonly lists: Frame[] = [];
  readonly links: Frame[] = [];

  append(text: string): void {
    if (text === "") return;
    this.out += text;
    for (const link of this.links) link.label += text;
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 10) end -= 1;
    this.trailing = end === 0 ? this.trailing + text.length : text.length - end;
  }

  /** End `out` with at least `gap` line breaks (none at the start). */
  separate(gap: 1 | 2): void {
    if (this.out !== "" && this.trailing < gap) this.append(this.trailing === 0 && gap === 2 ? "\n\n" : "\n");
  }

  /** Append text; inside a quote every new line starts with `> `. */
  write(text: string): void {
    if (this.quotes === 0) {
      this.append(text);
      return;
    }
    const prefix = this.prefix;
    if (this.out === "" || this.trailing > 0) this.append(prefix);
    this.append(text.includes("\n") ? text.replace(/\n/g, `\n${prefix}`) : text);
  }

  close({ tag, block }: TagKind): void {
    const frame = this.stack.pop();
    if (frame?.tag === "spoiler") this.spoiler -= 1;
    if (frame?.tag === "blockquote") this.prefix = "> ".repeat(--this.quotes);
    if (frame?.tag === "ul" || frame?.tag === "ol") this.lists.pop();
    if (frame?.tag === "a") this.links.pop();
    if (tag === "a" && frame?.href !== undefined && frame.label !== frame.href)
      this.write(` (${frame.href})`);
    if (block) this.separate(this.lists.length > 0 ? 1 : 2);
  }

  open({ tag, block }: TagKind, attributes: string): void {
    if (tag === "br") {
      this.write("\n");
      return;
    }
    if (tag === "hr") {
      this.separate(2);
      this.write("———");
      this.separate(2);
      return;
    }
    const frame: Frame = { tag };
    if (block) this.separate((tag === "ul" || tag === "ol") && this.lists.length > 0 ? 1 : 2);
    if (tag === "ol") frame.next = Number(/start="(\d+)"/.exec(attributes)?.[1] ?? 1);
    if (tag === "li") {
      this.separate(1);
      const list = this.lists[this.lists.length - 1];
      const marker = list?.next === undefined ? "- " : `${list.next++}. `;
      this.write(`${"  ".repeat(Math.max(0, this.lists.length - 1))}${marker}`);
    }
    if (tag === "span" && attributes.includes("data-mx-spoiler")) {
      if (this.spoiler === 0) this.write("[Spoiler]");
      this.spoiler += 1;
      frame.tag = "spoiler";
    }
    if (tag === "a") {
      frame.href = unescapeHtml(/href="([^"]*)"/.exec(attributes)?.[1] ?? "");
      frame.label = "";
      this.links.push(frame);
    }
    if (tag === "blockquote") this.prefix = "> ".repeat(++this.quotes);
    if (tag === "ul" || tag === "ol") this.lists.push(frame);
    this.stack.push(frame);
  }
}
