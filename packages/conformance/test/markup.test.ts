import { parseMarkdown, parseReplyMarkdown } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { parseReferenceMarkup, parseReferenceSpans, referenceRenderer } from "../src/reference/markup.js";

const render = (markdown: string) => referenceRenderer.render(parseReplyMarkdown(markdown));

describe("reference markup", () => {
  it("renders formatting as tags and escapes special characters", () => {
    expect(render("**b** _i_ ~~s~~ `c<d>` [l](https://x.test/?a=1&b=2)")).toBe(
      '<b>b</b> <i>i</i> <s>s</s> <code>c&lt;d&gt;</code> <a href="https://x.test/?a=1&amp;b=2">l</a>',
    );
    expect(render("1 < 2 & 3 > 2")).toBe("1 &lt; 2 &amp; 3 &gt; 2");
  });

  it("renders blocks: paragraphs, code with its text verbatim, lists, headings", () => {
    expect(render("# T\n\npara one\n\n```js\nlet a = 1 < 2;\n```\n\n- x\n- y")).toBe(
      '<b>T</b>\n\npara one\n\n<pre><code class="language-js">let a = 1 &lt; 2;</code></pre>\n\n• x\n• y',
    );
  });

  it("visible text of the rendering equals the plain rendering", () => {
    const tree = parseMarkdown("**bold** & <tag> `x & y`\n\n```\ncode\n```");
    expect(parseReferenceMarkup(referenceRenderer.render(tree))).toBe(referenceRenderer.plain(tree));
    expect(referenceRenderer.measure(referenceRenderer.render(tree))).toBe(
      referenceRenderer.plain(tree).length,
    );
  });

  it("decodes the formatting spans: kinds, ranges, the link's URL, the code language", () => {
    const markup = render(
      "**b** _i_ ~~s~~ `c` [l](https://x.test/?a=1&b=2) ||h||\n\n> q\n\n```py\nx = 1\n```",
    );
    expect(parseReferenceSpans(markup)).toEqual({
      text: "b i s c l h\n\nq\n\nx = 1",
      formatting: [
        { kind: "bold", offset: 0, length: 1 },
        { kind: "italic", offset: 2, length: 1 },
        { kind: "strike", offset: 4, length: 1 },
        { kind: "code", offset: 6, length: 1 },
        { kind: "link", offset: 8, length: 1, url: "https://x.test/?a=1&b=2" },
        { kind: "spoiler", offset: 10, length: 1 },
        { kind: "quote", offset: 13, length: 1 },
        { kind: "pre", offset: 16, length: 5, language: "py" },
      ],
    });
  });

  it.each([
    ["a < b", /Unexpected end of name token at byte offset 2/],
    ["a & b", /Unsupported HTML entity at byte offset 2/],
    ["&nbsp;", /Unsupported HTML entity/],
    ["<b>x", /Can't find end tag corresponding to start tag "b"/],
    ["<b>x</i>", /Unmatched end tag/],
    ["<u>x</u>", /Unsupported start tag "u"/],
  ])("refuses malformed markup %j", (markup, error) => {
    expect(() => parseReferenceMarkup(markup)).toThrow(error);
  });
});
