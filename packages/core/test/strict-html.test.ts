import { describe, expect, it } from "vitest";
import { decodeStrictHtml } from "../src/adapter/strict-html.js";
import { observedLines } from "../src/testing/index.js";

const TAGS = { b: "bold", a: "link", pre: "pre", code: "code", blockquote: "quote" } as const;

describe("decodeStrictHtml", () => {
  it("decodes text, spans (a link's url, a code block's language) and entities; observedLines reads its lines", () => {
    const decoded = decodeStrictHtml(
      '<b>Hi</b> &amp; <a href="https://x.test/?a=1&amp;b=2">go</a>\n<pre><code class="language-js">let a;\n  b();</code></pre>',
      TAGS,
    );
    expect(decoded).toEqual({
      text: "Hi & go\nlet a;\n  b();",
      formatting: [
        { kind: "bold", offset: 0, length: 2 },
        { kind: "link", offset: 5, length: 2, url: "https://x.test/?a=1&b=2" },
        { kind: "pre", offset: 8, length: 13, language: "js" },
      ],
    });
    expect(observedLines(decoded.text, decoded.formatting).map((line) => line.kind)).toEqual([
      "text",
      "code",
      "code",
    ]);
  });

  it.each([
    ["<i>x</i>", /^can't parse entities: unsupported "<i>"/],
    ["<b>x", /^can't parse entities: unclosed <b>/],
    ["<b>x</a>", /^can't parse entities: unexpected end tag <\/a>/],
    ["1 < 2", /^can't parse entities: unsupported "<" at byte 2/],
    ["&nbsp;", /^can't parse entities: unknown entity &nbsp;/],
  ])("refuses %s as the platform would", (markup, reason) => {
    expect(() => decodeStrictHtml(markup, TAGS)).toThrow(reason);
  });
});
