import { describe, expect, it } from "vitest";
import { createHtmlRenderer, escapeHtml, parseReplyMarkdown, unescapeHtml } from "../../src/index.js";

const render = createHtmlRenderer({
  heading: (depth, content) => `<h${depth}>${content}</h${depth}>`,
  spoilerAttributes: ' class="s"',
});
const html = (markdown: string) => render(parseReplyMarkdown(markdown));

describe("createHtmlRenderer", () => {
  it("writes the dialect's headings, spoilers and link schemes; escapes every text; lines as elements", () => {
    expect(html("## T\n\n||x|| [a](https://e.test) [b](http://e.test) <b>&\nnext")).toBe(
      '<h2>T</h2><p><span class="s">x</span> <a href="https://e.test">a</a> <a href="http://e.test">b</a> &lt;b&gt;&amp;<br>next</p>',
    );
    expect(html("3. a\n4. b\n\n```js\n<x>\n```")).toBe(
      '<ol start="3"><li>a</li><li>b</li></ol><pre><code class="language-js">&lt;x&gt;</code></pre>',
    );
  });

  it("writes a tight list item's blocks without a line break element (a block ends its line by itself)", () => {
    expect(html("- a\n  ```\n  x\n  ```\n  b")).toBe("<ul><li>a<pre><code>x</code></pre>b</li></ul>");
  });

  it("escapes and unescapes the five entities it writes", () => {
    const text = `a&b<c>"d"'e'`;
    expect(escapeHtml(text)).toBe("a&amp;b&lt;c&gt;&quot;d&quot;&#39;e&#39;");
    expect(unescapeHtml(escapeHtml(text))).toBe(text);
  });
});
