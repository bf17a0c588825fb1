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
/**
 * Tags without attributes, by what lies between `<` and `>` (`/em`, `br`), with whether they
 * close: read without matching a regular expression, as the renderer writes most of its tags.
 */
const BARE_TAGS = new Map<string, [closing: boolean, tag: string]>(
  [...BLOCKS, ...STYLES, "br", "li", "a", "span"].flatMap((tag) => [
    [tag, [false, tag]],
    [`/${tag}`, [true, tag]],
  ]),
);

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
    const bare = close < 0 ? undefined : BARE_TAGS.get(html.slice(at + 1, close));
    let closing: boolean;
    let tag: string;
    let attributes = "";
    if (bare !== undefined) {
      [closing, tag] = bare;
      at = close + 1;
    } else {
      TAG.lastIndex = at;
      const match = TAG.exec(html);
      if (match === null) {
        at += 1;
        continue;
      }
      at = TAG.lastIndex;
      closing = match[1] === "/";
      tag = match[2] ?? "";
      attributes = match[3] ?? "";
    }
    if (STYLES.has(tag)) continue;
    if (closing) body.close(tag);
    else body.open(tag, attributes);
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

/** The longest key of {@link BARE_TAGS} (`/blockquote`), plus one for the `>`. */
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

  separate(gap: string): void {
    if (this.out !== "" && this.trailing < gap.length) this.append("\n".repeat(gap.length - this.trailing));
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

  close(tag: string): void {
    const frame = this.stack.pop();
    if (frame?.tag === "spoiler") this.spoiler -= 1;
    if (frame?.tag === "blockquote") this.prefix = "> ".repeat(--this.quotes);
    if (frame?.tag === "ul" || frame?.tag === "ol") this.lists.pop();
    if (frame?.tag === "a") this.links.pop();
    if (tag === "a" && frame?.href !== undefined && frame.label !== frame.href)
      this.write(` (${frame.href})`);
    if (BLOCKS.has(tag)) this.separate(this.lists.length > 0 ? "\n" : "\n\n");
  }

  open(tag: string, attributes: string): void {
    if (tag === "br") {
      this.write("\n");
      return;
    }
    if (tag === "hr") {
      this.separate("\n\n");
      this.write("———");
      this.separate("\n\n");
      return;
    }
    const frame: Frame = { tag };
    if (BLOCKS.has(tag))
      this.separate(tag === "ul" || tag === "ol" ? (this.lists.length > 0 ? "\n" : "\n\n") : "\n\n");
    if (tag === "ol") frame.next = Number(/start="(\d+)"/.exec(attributes)?.[1] ?? 1);
    if (tag === "li") {
      this.separate("\n");
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
