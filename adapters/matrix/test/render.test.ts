/**
 * The renderer: HTML within the allow-list (the emulator's check), escaped, line structure as
 * elements, the `body` fallback, and a measure never under what the heaviest event weighs.
 */
import { cpuGrowth, hostileMarkdown } from "@outbox/conformance";
import { parseReplyMarkdown } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { htmlToBody, matrixRenderer } from "../src/index.js";
import { jsonBytes, MAX_CONTENT_BYTES } from "../src/render/weight.js";
import { checkHtml } from "../src/testing/emulator/html.js";
import { decodeHtml } from "../src/testing/index.js";
import { editContent, textContent } from "../src/transport/content.js";

const render = (markdown: string) => matrixRenderer.render(parseReplyMarkdown(markdown));

describe("matrixRenderer", () => {
  it("writes only allowed tags, escapes text and keeps lines as elements, not raw newlines", () => {
    const html = render(
      "# Title\n\n**b** _i_ ~~s~~ `c` ||secret|| <script>&\nnext line\n\n- one\n  - two\n\n```ts\nlet a = 1;\n```",
    );
    expect(() => checkHtml(html)).not.toThrow();
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("&lt;script&gt;&amp;<br>next line");
    expect(html).toContain("<span data-mx-spoiler>secret</span>");
    expect(html).toContain(
      '<pre><code class="language-ts">let a = 1;\n</code></pre>'.replace("\n</code>", "</code>"),
    );
    expect(html.replace(/<pre>[\s\S]*?<\/pre>/g, "")).not.toContain("\n");
  });

  it("drops links outside the spec's schemes, keeping their text", () => {
    expect(render("[x](javascript:alert(1)) [y](https://example.org)")).toBe(
      '<p>x <a href="https://example.org">y</a></p>',
    );
  });

  it("gives a plain body with the same lines and no spoiler text", () => {
    const html = render("Hi ||hidden|| [site](https://example.org)\n\n1. a\n2. b\n\n> quoted\n> twice");
    expect(htmlToBody(html)).toBe(
      "Hi [Spoiler] site (https://example.org)\n\n1. a\n2. b\n\n> quoted\n> twice",
    );
    expect(decodeHtml(html).text).toContain("hidden");
  });

  it("reads every tag the renderer writes, those of one first letter and length apart", () => {
    // `h2`, `h6` and `hr` (or `/h2` and `/h6`) differ past their first letter only; an
    // unknown tag (`hx`, `b`) is skipped, its text kept.
    const html =
      '<h2>T</h2><hr><h6>U</h6><p>a<br>b <em>e</em> <strong>s</strong> <del>d</del> <code>c</code></p><ol start="2"><li>x</li></ol><ul><li>y</li></ul><pre><code>z</code></pre><blockquote><p>q</p></blockquote><p><hx>w</hx> <b>v</b></p>';
    expect(htmlToBody(html)).toBe("T\n\n———\n\nU\n\na\nb e s d c\n\n2. x\n\n- y\n\nz\n\n> q\n\nw v");
  });

  it("measures at least what the edit event of a chunk weighs, and a full chunk fits the event limit", () => {
    for (const markdown of ['"quotes" & <tags> \\ ünïcödé 🎉\n'.repeat(40), "plain ".repeat(500)]) {
      const html = render(markdown);
      const content = editContent(`$${"e".repeat(43)}`, textContent({ text: html, plain: "" }, "m.text"));
      const withRelation = {
        ...content,
        "m.relates_to": { rel_type: "m.thread", event_id: `$${"t".repeat(254)}` },
      };
      expect(matrixRenderer.measure(html)).toBeGreaterThanOrEqual(
        Buffer.byteLength(JSON.stringify(withRelation)),
      );
    }
    expect(MAX_CONTENT_BYTES + 4096).toBe(65_536);
  });

  it("counts a short text's JSON bytes as serializing it does, escapes and surrogates included", () => {
    const serialized = (text: string) => Buffer.byteLength(JSON.stringify(text));
    const texts = [
      "",
      'a"b\\c',
      "\b\t\n\f\r\u0000\u001f\u007f",
      "é€🎉",
      "\ud800",
      "x\udfff",
      "\udbff\udfffy",
    ];
    for (let code = 0; code < 0x10000; code += 1) {
      const unit = String.fromCharCode(code);
      texts.push(unit, `${unit}\udc00`, `a${unit}🎉`);
    }
    texts.push("ü".repeat(1023), "ü".repeat(1024), '"'.repeat(2000));
    expect(
      texts.filter((text) => jsonBytes(text) !== serialized(text)).map((text) => JSON.stringify(text)),
    ).toEqual([]);
  });
});

describe("the body fallback on hostile text", () => {
  // Each line break inside a quote read the end of the body built so far (a copy of all of
  // it), and each block boundary searched it with a regular expression: 4× the lines took
  // 16× the time. Splitting `"> x\n".repeat(100_000)` measures many such bodies.
  it.each(["quoted lines", "many tiny blocks", "link storm"] as const)(
    "grows linearly with the HTML: %s",
    (family) => {
      const htmls = new Map<number, string>();
      const html = (size: number): string => {
        let rendered = htmls.get(size);
        if (rendered === undefined) {
          rendered = matrixRenderer.render(parseReplyMarkdown(hostileMarkdown[family](size)));
          htmls.set(size, rendered);
        }
        return rendered;
      };
      const growth = cpuGrowth((size) => htmlToBody(html(size)), 32 * 1024, 8, 3);
      expect(growth.exponent, JSON.stringify(growth)).toBeLessThan(1.5);
    },
  );

  it("keeps a link's URL where its label differs, and only there", () => {
    const body = htmlToBody(
      matrixRenderer.render(parseReplyMarkdown("[a](https://a.example) <https://b.example>")),
    );
    expect(body).toBe("a (https://a.example) https://b.example");
  });
});
