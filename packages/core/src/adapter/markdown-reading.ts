/**
 * The emulator kit's reader of Markdown, for an emulator of a platform that shows Markdown
 * (CommonMark with GFM strikethrough, as core parses it; an MCP client): the visible text and
 * its formatting spans, decoded the way a client renders it. List items show their marker
 * (`• `, `3. `), their nested lines indented under it, so the suite reads the line structure
 * from the text.
 */
import type { List, Nodes, RootContent } from "mdast";
import { parseMarkdown } from "../markdown/parse-markdown.js";
import type { ObservedFormat, ObservedFormatKind, ObservedLine } from "./observed.js";
import { observedLines } from "./observed-lines.js";

/** Visible text and formatting spans (UTF-16 offsets over `text`). */
export interface DecodedMarkdown {
  /** What the reader sees: blocks separated by a blank line, list items by a line break after their marker. */
  text: string;
  /** Formatting spans in order of offset, outer spans first. */
  formatting: ObservedFormat[];
  /** The lines a client shows: those of `text`, headings drawn as headings. */
  lines: ObservedLine[];
}

class Decoder {
  text = "";
  readonly spans: ObservedFormat[] = [];
  /** Indentation of the lines inside the list items being decoded (under their markers). */
  indent = "";
  /** Offsets in `text` where a heading starts. */
  readonly headings: number[] = [];

  /** Text with each line break followed by the current indentation. */
  write(text: string): void {
    this.text += this.indent === "" ? text : text.replace(/\n/g, `\n${this.indent}`);
  }

  span(kind: ObservedFormatKind, extra: Partial<ObservedFormat>, body: () => void): void {
    const span: ObservedFormat = { kind, offset: this.text.length, length: 0, ...extra };
    this.spans.push(span);
    body();
    span.length = this.text.length - span.offset;
  }

  join(children: RootContent[], separator: string): void {
    children.forEach((child, index) => {
      if (index > 0) this.write(separator);
      this.node(child);
    });
  }

  node(n: Nodes): void {
    const wrapper = WRAPPERS[n.type];
    if (wrapper !== undefined && "children" in n) {
      const extra = n.type === "link" ? { url: n.url } : {};
      this.span(wrapper, extra, () => this.join(n.children, n.type === "blockquote" ? "\n\n" : ""));
    } else if (n.type === "inlineCode" || n.type === "code") {
      const extra = n.type === "code" && n.lang ? { language: n.lang } : {};
      this.span(n.type === "code" ? "pre" : "code", extra, () => {
        this.text += n.value;
      });
    } else if (n.type === "text" || n.type === "html") this.text += n.value;
    else if (n.type === "break") this.write("\n");
    else if (n.type === "image") this.text += n.alt ?? "";
    else if (n.type === "list") this.list(n);
    else if (n.type === "heading") {
      this.headings.push(this.text.length);
      this.join(n.children, "");
    } else if (n.type === "root") this.join(n.children, "\n\n");
    else if ("children" in n) this.join(n.children, "");
  }

  /** A list as a client shows it: each item on its line after its marker, nested lines indented under it. */
  list(n: List): void {
    const start = n.start ?? 1;
    n.children.forEach((item, index) => {
      if (index > 0) this.write("\n");
      const marker = n.ordered ? `${start + index}. ` : "• ";
      this.text += marker;
      const outer = this.indent;
      this.indent += " ".repeat(marker.length);
      this.join(item.children, item.spread ? "\n\n" : "\n");
      this.indent = outer;
    });
  }
}

/** Node types shown as a formatting span around their children. */
const WRAPPERS: Partial<Record<Nodes["type"], ObservedFormatKind>> = {
  strong: "bold",
  emphasis: "italic",
  delete: "strike",
  link: "link",
  blockquote: "quote",
};

/** Decodes Markdown text as a client that renders CommonMark shows it. */
export function decodeMarkdown(markdown: string): DecodedMarkdown {
  const decoder = new Decoder();
  decoder.node(parseMarkdown(markdown));
  const formatting = decoder.spans
    .filter((span) => span.length > 0)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  const { text, headings } = decoder;
  const lines = observedLines(text, formatting);
  let offset = 0;
  for (const [index, line] of text.split("\n").entries()) {
    if (headings.includes(offset)) (lines[index] as ObservedLine).kind = "heading";
    offset += line.length + 1;
  }
  return { text, formatting, lines };
}
