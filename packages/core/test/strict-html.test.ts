import { describe, expect, it } from "vitest";
import { decodeStrictHtml, parseStrictHtml, StrictHtmlError } from "../src/adapter/strict-html.js";
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
    ["<i>x</i>", `can't parse entities: Unsupported start tag "i" at byte offset 0`],
    ["<b>x", `can't parse entities: Can't find end tag corresponding to start tag "b"`],
    ["<b>x</a>", `can't parse entities: Unmatched end tag at byte offset 4, expected "</b>", found "</a>"`],
    ["é 1 < 2", "can't parse entities: Unexpected end of name token at byte offset 5"],
    ["&nbsp;", "can't parse entities: Unsupported HTML entity at byte offset 0"],
  ])("refuses %s as the platform would", (markup, reason) => {
    expect(() => decodeStrictHtml(markup, TAGS)).toThrow(reason);
  });
});

describe("parseStrictHtml (a dialect's own rules)", () => {
  const dialect = {
    tags: { b: "bold", code: "code" },
    refuse: (name: string, _attrs: ReadonlyMap<string, string>, open: readonly { name: string }[]) =>
      open.some((tag) => tag.name === "code") ? `Entity "${name}" can't be nested inside "code"` : undefined,
  } as const;

  it("refuses a tag its rules refuse, at the tag's byte offset", () => {
    expect(() => parseStrictHtml("é<code><b>x</b></code>", dialect)).toThrow(
      new StrictHtmlError(`Entity "b" can't be nested inside "code" at byte offset 8`),
    );
  });

  it("keeps each tag's decoded attributes and numeric entities", () => {
    expect(parseStrictHtml("<b title='a&amp;b' x=1 open>&#x1F600;&#65;</b>", dialect)).toEqual({
      text: "😀A",
      spans: [
        {
          type: "bold",
          offset: 0,
          length: 3,
          attrs: new Map([
            ["title", "a&b"],
            ["x", "1"],
            ["open", ""],
          ]),
        },
      ],
    });
  });
});
