import { parseMarkdown } from "@outbox/core";
import fc from "fast-check";
import type { Root } from "mdast";
import { describe, expect, it } from "vitest";
import { visibleLength } from "../src/render/escape.js";
import { telegramRenderer } from "../src/render/renderer.js";
import { parseTelegramHtml } from "../src/testing/index.js";

const render = (markdown: string) => telegramRenderer.render(parseMarkdown(markdown));

/** Markdown fragments that exercise every construct the renderer maps, for the property tests. */
const piece = fc.constantFrom(
  "**b**",
  "_i_",
  "~~s~~",
  "`c<&>`",
  "```ts\nx < 1\n```\n",
  "```\n\n```\n",
  "> ",
  "> > ",
  "- ",
  "  - ",
  "1. ",
  "10. ",
  "# ",
  "---\n",
  '[a](https://x.test/?q=<&">)',
  "[](https://x.test/e)",
  "[js](javascript:x)",
  "![](https://x.test/i.png)",
  "![alt](https://x.test/i.png)",
  "<b>",
  "&amp;",
  "&",
  "<",
  '"',
  "  \n",
  "\n",
  "\n\n",
  " ",
  "text",
  "😀",
);

describe("Telegram HTML renderer", () => {
  it.each([
    ["plain", "hello world", "hello world"],
    ["bold, italic, strike", "**b** _i_ ~~s~~", "<b>b</b> <i>i</i> <s>s</s>"],
    ["nesting", "**bold _and italic_ ~~and struck~~**", "<b>bold <i>and italic</i> <s>and struck</s></b>"],
    ["escaping", "a < b && c > d", "a &lt; b &amp;&amp; c &gt; d"],
    [
      "raw HTML is text",
      "<b>not bold</b> <script>x</script>",
      "&lt;b&gt;not bold&lt;/b&gt; &lt;script&gt;x&lt;/script&gt;",
    ],
    ["inline code", "use `a<b>` & `c`", "use <code>a&lt;b&gt;</code> &amp; <code>c</code>"],
    [
      "code block",
      "```ts\nconst a = 1 < 2;\n```",
      '<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>',
    ],
    ["code block without language", "```\nx & y\n```", "<pre>x &amp; y</pre>"],
    ["odd language dropped", '```a"b\nx\n```', "<pre>x</pre>"],
    [
      "link with quote and ampersand",
      '[t](https://x.test/?a=1&b="2")',
      '<a href="https://x.test/?a=1&amp;b=&quot;2&quot;">t</a>',
    ],
    ["unsafe link scheme is text", "[t](javascript:alert(1))", "t"],
    ["autolink", "<https://x.test/a>", '<a href="https://x.test/a">https://x.test/a</a>'],
    ["heading", "# Title *x*\n\ntext", "<b>Title <i>x</i></b>\n\ntext"],
    ["bullet list", "- one\n- two\n  - nested", "• one\n• two\n  • nested"],
    ["ordered list", "3. a\n4. b", "3. a\n4. b"],
    ["blockquote", "> quoted **b**", "<blockquote>quoted <b>b</b></blockquote>"],
    ["nested blockquote flattened", "> a\n>\n> > b", "<blockquote>a\nb</blockquote>"],
    ["image becomes a link", "![alt](https://x.test/i.png)", '<a href="https://x.test/i.png">alt</a>'],
    ["hard break", "a  \nb", "a\nb"],
    ["thematic break", "a\n\n---\n\nb", "a\n\n———\n\nb"],
    ["emoji, RTL and 4-byte code points", "😀 שלום 𝕏", "😀 שלום 𝕏"],
  ])("%s", (_name, markdown, html) => {
    expect(render(markdown)).toBe(html);
  });

  it("renders spoiler nodes", () => {
    const tree: Root = {
      type: "root",
      children: [
        { type: "paragraph", children: [{ type: "spoiler", children: [{ type: "text", value: "secret" }] }] },
      ],
    };
    expect(telegramRenderer.render(tree)).toBe("<tg-spoiler>secret</tg-spoiler>");
  });

  it("measures visible UTF-16 length after entity parsing", () => {
    const html = render(`**${"&".repeat(300)}** 😀`);
    expect(html.length).toBeGreaterThan(1500);
    expect(telegramRenderer.measure(html)).toBe(303);
  });

  it("gives readable plain text with link targets", () => {
    const tree = parseMarkdown("**Hi** [docs](https://x.test/d) & <https://x.test/a>\n\n- item");
    expect(telegramRenderer.plain(tree)).toBe("Hi docs (https://x.test/d) & https://x.test/a\n\n• item");
  });

  it("always produces HTML that Telegram's parser accepts, measured as Telegram counts it", () => {
    const piece = fc.constantFrom(
      "**",
      "_",
      "~~",
      "`",
      "```\n",
      "> ",
      "- ",
      "1. ",
      "# ",
      '[a](https://x.test/?q=<&">)',
      "||",
      "<b>",
      "&amp;",
      "&",
      "<",
      ">",
      '"',
      "\n",
      "\n\n",
      " ",
      "text",
      "😀",
      "\\",
      "![i](https://x.test/i.png)",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const html = render(pieces.join(""));
        const parsed = parseTelegramHtml(html);
        expect(telegramRenderer.measure(html)).toBe(parsed.text.length);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps its blockSeparator promise: blocks rendered alone, empty ones left out, joined by a blank line (property)", () => {
    const block = fc.array(piece, { minLength: 1, maxLength: 8 }).map((list) => list.join(""));
    const separator = telegramRenderer.blockSeparator as string;
    expect(separator).toBe("\n\n");
    fc.assert(
      fc.property(fc.array(block, { maxLength: 6 }), (blocks) => {
        const tree = parseMarkdown(blocks.join("\n\n"));
        const pieces = tree.children
          .map((child) => telegramRenderer.renderMeasured?.({ type: "root", children: [child] }))
          .filter((measured) => measured !== undefined && measured.text !== "");
        const whole = telegramRenderer.renderMeasured?.(tree);
        expect(whole?.text).toBe(pieces.map((measured) => measured?.text).join(separator));
        expect(whole?.length).toBe(
          pieces.reduce((sum, measured) => sum + (measured?.length ?? 0), 0) +
            Math.max(0, pieces.length - 1) * telegramRenderer.measure(separator),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("renders and measures in one walk exactly as render then measure (property)", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const tree = parseMarkdown(pieces.join(""));
        const html = telegramRenderer.render(tree);
        expect(telegramRenderer.renderMeasured?.(tree)).toEqual({ text: html, length: visibleLength(html) });
      }),
      { numRuns: 500 },
    );
    const spoiler: Root = {
      type: "root",
      children: [
        { type: "paragraph", children: [{ type: "spoiler", children: [{ type: "text", value: "a<b" }] }] },
      ],
    };
    expect(telegramRenderer.renderMeasured?.(spoiler)).toEqual({
      text: "<tg-spoiler>a&lt;b</tg-spoiler>",
      length: 3,
    });
  });
});
