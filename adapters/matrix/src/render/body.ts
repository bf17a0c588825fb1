/**
 * The plain-text `body` every `m.room.message` must carry, derived from the renderer's own
 * `formatted_body` (a client without HTML shows it; notifications and search read it): one
 * line per paragraph line, a blank line between blocks, list items as `- ` / `3. ` lines
 * indented two spaces per level, quotes as `> ` lines, code blocks verbatim, a link as
 * `label (url)` when they differ. A spoiler is `[Spoiler]`: the spec asks that the fallback
 * not show the hidden text. Reads only the markup {@link renderMatrixHtml} writes.
 */
import { unescapeHtml } from "@outbox/core";

const TOKEN = /<(\/?)([a-z][a-z0-9]*)((?:\s[^>]*)?)>|([^<]+)/g;
const BLOCKS = new Set(["p", "pre", "blockquote", "ul", "ol", "hr", "h1", "h2", "h3", "h4", "h5", "h6"]);
/** Inline styles: the body shows their text only, so their tags are skipped without a frame. */
const STYLES = new Set(["em", "strong", "del", "code"]);

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
 * of it), so the work is linear in the HTML.
 */
export function htmlToBody(html: string): string {
  let out = "";
  /** How many line breaks `out` ends with. */
  let trailing = 0;
  let spoiler = 0;
  let quotes = 0;
  const stack: Frame[] = [];
  const lists: Frame[] = [];
  const links: Frame[] = [];
  const append = (text: string) => {
    if (text === "") return;
    out += text;
    for (const link of links) link.label += text;
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 10) end -= 1;
    trailing = end === 0 ? trailing + text.length : text.length - end;
  };
  const separate = (gap: string) => {
    if (out !== "" && trailing < gap.length) append("\n".repeat(gap.length - trailing));
  };
  /** Append text; inside a quote every new line starts with `> `. */
  const write = (text: string) => {
    if (quotes === 0) return append(text);
    const prefix = "> ".repeat(quotes);
    if (out === "" || trailing > 0) append(prefix);
    append(text.replace(/\n/g, `\n${prefix}`));
  };
  for (const match of html.matchAll(TOKEN)) {
    const [, closing, tag = "", attributes = "", text] = match;
    if (text !== undefined) {
      if (spoiler === 0) write(text.includes("&") ? unescapeHtml(text) : text);
      continue;
    }
    if (STYLES.has(tag)) continue;
    if (closing === "/") {
      const frame = stack.pop();
      if (frame?.tag === "spoiler") spoiler -= 1;
      if (frame?.tag === "blockquote") quotes -= 1;
      if (frame?.tag === "ul" || frame?.tag === "ol") lists.pop();
      if (frame?.tag === "a") links.pop();
      if (tag === "a" && frame?.href !== undefined && frame.label !== frame.href) write(` (${frame.href})`);
      if (BLOCKS.has(tag)) separate(lists.length > 0 ? "\n" : "\n\n");
      continue;
    }
    if (tag === "br") {
      write("\n");
      continue;
    }
    if (tag === "hr") {
      separate("\n\n");
      write("———");
      separate("\n\n");
      continue;
    }
    const frame: Frame = { tag };
    if (BLOCKS.has(tag)) separate(tag === "ul" || tag === "ol" ? (lists.length > 0 ? "\n" : "\n\n") : "\n\n");
    if (tag === "ol") frame.next = Number(/start="(\d+)"/.exec(attributes)?.[1] ?? 1);
    if (tag === "li") {
      separate("\n");
      const list = lists[lists.length - 1];
      const marker = list?.next === undefined ? "- " : `${list.next++}. `;
      write(`${"  ".repeat(Math.max(0, lists.length - 1))}${marker}`);
    }
    if (tag === "span" && attributes.includes("data-mx-spoiler")) {
      if (spoiler === 0) write("[Spoiler]");
      spoiler += 1;
      frame.tag = "spoiler";
    }
    if (tag === "a") {
      frame.href = unescapeHtml(/href="([^"]*)"/.exec(attributes)?.[1] ?? "");
      frame.label = "";
      links.push(frame);
    }
    if (tag === "blockquote") quotes += 1;
    if (tag === "ul" || tag === "ol") lists.push(frame);
    stack.push(frame);
  }
  return out.trimEnd();
}
