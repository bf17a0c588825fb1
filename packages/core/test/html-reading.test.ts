import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { type HtmlNode, type HtmlReading, readHtml } from "../src/testing/index.js";

/** Nodes as htmlparser2's `parseDocument` gives them (core has no HTML parser of its own). */
const t = (data: string): HtmlNode => ({ type: "text", data });
const el = (name: string, attribs: Record<string, string>, ...children: HtmlNode[]): HtmlNode => ({
  type: "tag",
  name,
  attribs,
  children,
});
const READING: HtmlReading = { spoiler: (attribs) => attribs["data-mx-spoiler"] !== undefined, rule: "———" };

describe("readHtml", () => {
  it("lays out blocks, list markers, breaks and spans, a raw newline as a space, headings as heading lines", () => {
    const read = readHtml(
      [
        el("h2", {}, t("Title")),
        el(
          "p",
          {},
          t("a\nb "),
          el("strong", {}, t("bold")),
          el("br", {}),
          el("span", { "data-mx-spoiler": "" }, t("s")),
        ),
        el("ol", { start: "3" }, el("li", {}, t("x"), el("ul", {}, el("li", {}, t("y"))))),
        el("hr", {}),
        el("pre", {}, el("code", { class: "language-ts" }, t("let a;\nb();"))),
      ],
      READING,
    );
    expect(read.text).toBe("Title\n\na b bold\ns\n\n3. x\n  • y\n\n———\n\nlet a;\nb();");
    expect(read.formatting).toEqual([
      { kind: "bold", offset: 11, length: 4 },
      { kind: "spoiler", offset: 16, length: 1 },
      { kind: "pre", offset: 36, length: 11, language: "ts" },
    ]);
    expect(read.lines.map((line) => line.kind)).toEqual([
      "heading",
      "blank",
      "text",
      "text",
      "blank",
      "item",
      "item",
      "blank",
      "text",
      "blank",
      "code",
      "code",
    ]);
  });

  it("starts text after a block on a new line, as a browser does (a tight list item: text, code block, text)", () => {
    const item = el("li", {}, t("a"), el("pre", {}, el("code", {}, t("x"))), t("b "), el("em", {}, t("c")));
    const read = readHtml([el("ul", {}, item)], READING);
    expect(read.text).toBe("• a\n\nx\nb c");
    expect(read.formatting).toContainEqual({ kind: "italic", offset: 9, length: 1 });
    const inline = readHtml([el("blockquote", {}, t("q")), t("\n"), el("em", {}, t("after"))], READING);
    expect(inline.text).toBe("q\nafter");
    expect(inline.formatting).toEqual([
      { kind: "quote", offset: 0, length: 1 },
      { kind: "italic", offset: 2, length: 5 },
    ]);
  });
});

/** A small reader of markdown-it's HTML into nodes as htmlparser2 gives them (well-formed tags only). */
function parseRendered(html: string): HtmlNode[] {
  const root: HtmlNode = { type: "root", children: [] };
  const open = [root];
  for (const [, close, name, attribs, data] of html.matchAll(/<(\/?)(\w+)([^>]*)>|([^<]+)/g)) {
    const parent = open.at(-1) as HtmlNode;
    if (data !== undefined) parent.children?.push(t(data));
    else if (close) open.pop();
    else {
      const node = el(
        name as string,
        Object.fromEntries([...(attribs ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]])),
      );
      parent.children?.push(node);
      if (name !== "br" && name !== "hr") open.push(node);
    }
  }
  return root.children ?? [];
}

describe("readHtml on markdown-it's output", () => {
  const markdown = new MarkdownIt();
  const read = (source: string) => readHtml(parseRendered(markdown.render(source)), READING);

  it("reads the newlines between block tags as nothing: no stray space, no extra blank line", () => {
    expect(read("- a\n- b\n\npara").text).toBe("• a\n• b\n\npara");
    expect(read("> quoted\n\ntext").text).toBe("quoted\n\ntext");
    expect(read("- a\n  - b\n- c").text).toBe("• a\n  • b\n• c");
    expect(read("# Title\n\n```ts\nx\n```\n\n1. one\n2. two").text).toBe("Title\n\nx\n\n1. one\n2. two");
  });

  it("keeps a loose list item's bullet on the line of its first paragraph", () => {
    const loose = read("- first\n\n- second\n\n  more");
    expect(loose.text).toBe("• first\n• second\n\nmore");
    expect(loose.lines.map((line) => line.kind)).toEqual(["item", "item", "blank", "text"]);
  });

  it("puts a quote span over the quoted words only", () => {
    const quote = read("> quoted\n\ntext");
    expect(quote.formatting).toEqual([{ kind: "quote", offset: 0, length: "quoted".length }]);
  });
});
