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

interface Frame {
  tag: string;
  /** Next number of an `ol`. */
  next?: number;
  /** Text written inside this element (for `a`, to compare with its href). */
  start: number;
  href?: string;
}

/** The plain-text fallback of Matrix HTML written by the renderer. */
export function htmlToBody(html: string): string {
  let out = "";
  let spoiler = 0;
  const stack: Frame[] = [];
  const lists = () => stack.filter((f) => f.tag === "ul" || f.tag === "ol").length;
  const quotes = () => stack.filter((f) => f.tag === "blockquote").length;
  const separate = (gap: string) => {
    if (out === "") return;
    const trailing = /\n*$/.exec(out)?.[0].length ?? 0;
    if (trailing < gap.length) out = out.slice(0, out.length - trailing) + gap;
  };
  /** Append text; inside a quote every new line starts with `> `. */
  const write = (text: string) => {
    const prefix = "> ".repeat(quotes());
    if (prefix !== "" && (out === "" || out.endsWith("\n"))) out += prefix;
    out += prefix === "" ? text : text.replace(/\n/g, `\n${prefix}`);
  };
  for (const match of html.matchAll(TOKEN)) {
    const [, closing, tag = "", attributes = "", text] = match;
    if (text !== undefined) {
      if (spoiler === 0) write(unescapeHtml(text));
      continue;
    }
    if (closing === "/") {
      const frame = stack.pop();
      if (frame?.tag === "spoiler") spoiler -= 1;
      if (tag === "a" && frame?.href !== undefined && out.slice(frame.start) !== frame.href)
        write(` (${frame.href})`);
      if (BLOCKS.has(tag)) separate(lists() > 0 ? "\n" : "\n\n");
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
    const frame: Frame = { tag, start: out.length };
    if (BLOCKS.has(tag)) separate(tag === "ul" || tag === "ol" ? (lists() > 0 ? "\n" : "\n\n") : "\n\n");
    if (tag === "ol") frame.next = Number(/start="(\d+)"/.exec(attributes)?.[1] ?? 1);
    if (tag === "li") {
      separate("\n");
      const list = [...stack].reverse().find((f) => f.tag === "ul" || f.tag === "ol");
      const marker = list?.next === undefined ? "- " : `${list.next++}. `;
      write(`${"  ".repeat(Math.max(0, lists() - 1))}${marker}`);
    }
    if (tag === "span" && attributes.includes("data-mx-spoiler")) {
      if (spoiler === 0) write("[Spoiler]");
      spoiler += 1;
      frame.tag = "spoiler";
    }
    if (tag === "a") {
      frame.href = unescapeHtml(/href="([^"]*)"/.exec(attributes)?.[1] ?? "");
      frame.start = out.length;
    }
    stack.push(frame);
  }
  return out.replace(/\s+$/, "");
}
