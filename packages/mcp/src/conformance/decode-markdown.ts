/**
 * What an MCP client shows for the Markdown text it receives: the visible text and its
 * formatting spans, decoded with core's Markdown parser the way a client renders it.
 */
import { type ObservedFormat, type ObservedFormatKind, parseMarkdown } from "@outbox/core";
import type { Nodes, RootContent } from "mdast";

/** Visible text and formatting spans (UTF-16 offsets over `text`). */
export interface DecodedMarkdown {
  /** What the reader sees: blocks separated by a blank line, list items by a line break. */
  text: string;
  /** Formatting spans in order of offset, outer spans first. */
  formatting: ObservedFormat[];
}

class Decoder {
  text = "";
  readonly spans: ObservedFormat[] = [];

  span(kind: ObservedFormatKind, extra: Partial<ObservedFormat>, body: () => void): void {
    const span: ObservedFormat = { kind, offset: this.text.length, length: 0, ...extra };
    this.spans.push(span);
    body();
    span.length = this.text.length - span.offset;
  }

  join(children: RootContent[], separator: string): void {
    children.forEach((child, index) => {
      if (index > 0) this.text += separator;
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
    else if (n.type === "break") this.text += "\n";
    else if (n.type === "image") this.text += n.alt ?? "";
    else if (n.type === "list") this.join(n.children, "\n");
    else if (n.type === "root" || n.type === "listItem") this.join(n.children, "\n\n");
    else if ("children" in n) this.join(n.children, "");
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

/** Decodes Markdown text as an MCP client renders it. */
export function decodeMarkdown(markdown: string): DecodedMarkdown {
  const decoder = new Decoder();
  decoder.node(parseMarkdown(markdown));
  const formatting = decoder.spans
    .filter((span) => span.length > 0)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text: decoder.text, formatting };
}
