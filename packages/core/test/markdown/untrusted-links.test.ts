import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createHtmlRenderer,
  createPlainRenderer,
  judgeLinks,
  labelMisleads,
  type MarkerRenderDialect,
  parseReplyMarkdown,
  renderMarkers,
  stripInvisible,
} from "../../src/index.js";

const html = createHtmlRenderer({
  heading: (depth, content) => `<h${depth}>${content}</h${depth}>`,
  spoilerAttributes: ' class="s"',
});
const renderHtml = (markdown: string) => html(parseReplyMarkdown(markdown));
const markers: MarkerRenderDialect = {
  text: (value) => value,
  code: (value) => value,
  block: (value) => value,
  quote: "> ",
  bullet: "- ",
  link: (url, label) => `<${url}|${label}>`,
};
const renderMarked = (markdown: string) => renderMarkers(parseReplyMarkdown(markdown), markers);

const RLO = "\u202e";

describe("labelMisleads", () => {
  it("flags a label that is another URL or names another host", () => {
    expect(labelMisleads("https://good.example/login", "https://evil.example/login")).toBe(true);
    expect(labelMisleads("good.example", "https://evil.example/")).toBe(true);
    expect(labelMisleads("log in at www.bank.com", "https://bank.com.evil.example/")).toBe(true);
    expect(labelMisleads("https://good.example/a", "https://good.example/b")).toBe(true);
    expect(labelMisleads("10.0.0.1", "https://evil.example/")).toBe(true);
    expect(labelMisleads("alice@good.example", "mailto:alice@evil.example")).toBe(true);
    expect(labelMisleads(`https://evil.example/${RLO}gro.elpmaxe.doog`, "https://evil.example/")).toBe(true);
  });

  it("lets a label that names nothing, the URL itself or the target's own host (or a parent of it) pass", () => {
    expect(labelMisleads("the docs", "https://evil.example/docs")).toBe(false);
    expect(labelMisleads("https://good.example/docs", "https://good.example/docs")).toBe(false);
    expect(labelMisleads("HTTPS://Good.example/docs", "https://good.example/docs")).toBe(false);
    expect(labelMisleads("good.example", "https://docs.good.example/x")).toBe(false);
    expect(labelMisleads("www.good.example", "https://good.example/")).toBe(false);
    expect(labelMisleads("mail alice@good.example", "mailto:alice@good.example")).toBe(false);
  });

  it("reads the target's host as the URL parser does when it is not a plain name", () => {
    // User info, a port, a backslash, percent-encoding and punycode go through the parser.
    expect(labelMisleads("good.example", "https://good.example@evil.example/")).toBe(true);
    expect(labelMisleads("good.example", "https://good.example:443@evil.example/")).toBe(true);
    expect(labelMisleads("good.example", "https://good.example\\@evil.example/")).toBe(false);
    expect(labelMisleads("evil.example", "https://good.example\\@evil.example/")).toBe(true);
    expect(labelMisleads("good.example", "https://good.example:8443/x")).toBe(false);
    expect(labelMisleads("good.example", "https://%67ood.example/")).toBe(false);
    expect(labelMisleads("paypal.example", "https://xn--pypal-4ve.example/")).toBe(true);
    expect(labelMisleads("good.example", "HTTPS://WWW.Good.Example/x")).toBe(false);
    expect(labelMisleads("good.example", "https://good.example.evil.example/")).toBe(true);
    expect(labelMisleads("127.0.0.1", "https://0x7f.1/")).toBe(false);
  });
});

describe("the cost of judging ordinary links", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("builds no URL for labels that name no host, the URL itself or the target's plain host", () => {
    let parsed = 0;
    vi.stubGlobal(
      "URL",
      class extends URL {
        constructor(...args: ConstructorParameters<typeof URL>) {
          super(...args);
          parsed += 1;
        }
      },
    );
    const reply =
      "See [the docs](https://good.example/docs), [good.example](https://good.example/a), [www.good.example](https://www.good.example/b), [https://good.example/c](https://good.example/c) and [mail](mailto:me@good.example).";
    expect(renderHtml(reply)).toBe(
      '<p>See <a href="https://good.example/docs">the docs</a>, <a href="https://good.example/a">good.example</a>, <a href="https://www.good.example/b">www.good.example</a>, <a href="https://good.example/c">https://good.example/c</a> and <a href="mailto:me@good.example">mail</a>.</p>',
    );
    expect(parsed).toBe(0);
  });

  it("copies nothing when every link is honest: the tree comes back as it was given", () => {
    const tree = parseReplyMarkdown(
      "- [the **docs**](https://good.example/docs) and [good.example](https://good.example/)\n\n> [a](https://a.example)",
    );
    expect(judgeLinks(tree)).toBe(tree);
  });
});

describe("judgeLinks through the shared renderers", () => {
  it("shows a label naming another host as text, then the real target linked by its own URL", () => {
    expect(renderHtml("[https://good.example/login](https://evil.example/login)")).toBe(
      '<p>https://good.example/login (<a href="https://evil.example/login">https://evil.example/login</a>)</p>',
    );
    expect(renderMarked("go to [good.example](https://evil.example/x) now")).toBe(
      "go to good.example (<https://evil.example/x|https://evil.example/x>) now",
    );
  });

  it("keeps an honest label, and shows the URL for an empty one", () => {
    expect(renderHtml("[the **docs**](https://good.example/docs) [](https://good.example/)")).toBe(
      '<p><a href="https://good.example/docs">the <strong>docs</strong></a> <a href="https://good.example/">https://good.example/</a></p>',
    );
  });

  it("makes every scheme but http(s) and mailto plain text, images included", () => {
    const reply =
      "[me](tg://user?id=42) [log in](tg://login?token=abc) [p](tg://proxy?server=evil.example&port=1) [x](javascript:alert(1)) [f](ftp://files.example/a) ![pic](data:image/png;base64,AAAA) [m](mailto:a@good.example)";
    expect(renderHtml(reply)).toBe('<p>me log in p x f pic <a href="mailto:a@good.example">m</a></p>');
    expect(renderMarked(reply)).toBe("me log in p x f pic <mailto:a@good.example|m>");
    expect(createPlainRenderer().render(parseReplyMarkdown(reply))).toBe(
      "me log in p x f pic m (mailto:a@good.example)",
    );
  });

  it("removes direction controls and invisible characters from labels and encodes them in targets", () => {
    const spoofed = `[https://evil.example/reset${RLO}gro.elpmaxe.doog](https://evil.example/reset)`;
    expect(renderHtml(spoofed)).toBe(
      '<p>https://evil.example/resetgro.elpmaxe.doog (<a href="https://evil.example/reset">https://evil.example/reset</a>)</p>',
    );
    expect(renderHtml("[sa\u200bfe\u2066 \u00adlabel](https://good.example/a\u202eb)")).toBe(
      '<p><a href="https://good.example/a%E2%80%AEb">safe label</a></p>',
    );
    expect(stripInvisible(`a${RLO}\u200b\u200d\u2060\ufeff\u061c\u200e\u200f\u2067\u{e0041}b`)).toBe("ab");
  });

  it("returns a tree without links untouched, and never changes the tree it is given", () => {
    const plain = parseReplyMarkdown("**just** text\n\n- a list");
    expect(judgeLinks(plain)).toBe(plain);
    const linked = parseReplyMarkdown("[good.example](https://evil.example/)");
    const before = JSON.stringify(linked);
    judgeLinks(linked);
    expect(JSON.stringify(linked)).toBe(before);
  });
});
