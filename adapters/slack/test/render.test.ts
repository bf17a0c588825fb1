import { parseReplyMarkdown } from "@outbox/core";
import { createSlackRenderer, slackRenderer } from "@outbox/slack";
import { decodeMrkdwn } from "@outbox/slack/testing";
import { describe, expect, it } from "vitest";

/** What a Slack client shows for a Markdown reply rendered to mrkdwn. */
const shown = (markdown: string, mentions = false) =>
  decodeMrkdwn(createSlackRenderer({ mentions }).render(parseReplyMarkdown(markdown)));

describe("mrkdwn renderer", () => {
  it("renders styles natively: Slack shows no Markdown markup, and the spans sit on the words", () => {
    const { text, formatting } = shown("**bold** _it_ ~~gone~~ `code()` [docs](https://example.com/d)");
    expect(text).toBe("bold it gone code() docs");
    expect(formatting).toEqual([
      { kind: "bold", offset: 0, length: 4 },
      { kind: "italic", offset: 5, length: 2 },
      { kind: "strike", offset: 8, length: 4 },
      { kind: "code", offset: 13, length: 6 },
      { kind: "link", offset: 20, length: 4, url: "https://example.com/d" },
    ]);
  });

  it("writes a bare web address as <url>: linked whole, its _ and ~ literal, no zero-width space in it", () => {
    const url = "https://example.com/~user/_notes?a=1&b=*x";
    const rendered = slackRenderer.render(parseReplyMarkdown(`see ${url}. _Then_ that`));
    expect(rendered).toBe("see <https://example.com/~user/_notes?a=1&amp;b=*x>. _Then_ that");
    const { text, formatting } = decodeMrkdwn(rendered);
    expect(text).toBe(`see ${url}. Then that`);
    expect(formatting?.[0]).toEqual({ kind: "link", offset: 4, length: url.length, url });
    expect(rendered).not.toContain("\u200b");
  });

  it("escapes & < > and keeps them visible as typed", () => {
    const rendered = slackRenderer.render(parseReplyMarkdown("1 < 2 && 3 > 2; AT&T \\<b>x\\</b>"));
    expect(rendered).toBe("1 &lt; 2 &amp;&amp; 3 &gt; 2; AT&amp;T &lt;b&gt;x&lt;/b&gt;");
    expect(decodeMrkdwn(rendered).text).toBe("1 < 2 && 3 > 2; AT&T <b>x</b>");
  });

  it("keeps a bold span touching a word bold (zero-width space at the boundary)", () => {
    expect(shown("**bold**word").formatting).toEqual([{ kind: "bold", offset: 0, length: 4 }]);
    expect(shown("x**bold**").formatting).toEqual([{ kind: "bold", offset: 1, length: 4 }]);
  });

  it("shows literal markers as typed: nothing becomes formatted", () => {
    const { text, formatting } = shown("\\*not bold\\* 5 * 3 a_b_c \\~x\\~");
    expect(text).toBe("*not bold* 5 * 3 a_b_c ~x~");
    expect(formatting).toEqual([]);
  });

  it("the conformance special characters arrive exactly, with no formatting", () => {
    const special = "Math: 1 < 2 && 3 > 2; 5 * 3 = 15; a_b_c; AT&T \\<b>not bold\\</b> 😀👍🏽 שלום مرحبا 𝕏𠜎";
    expect(shown(special)).toEqual({
      text: "Math: 1 < 2 && 3 > 2; 5 * 3 = 15; a_b_c; AT&T <b>not bold</b> 😀👍🏽 שלום مرحبا 𝕏𠜎",
      formatting: [],
    });
  });

  it("headings become bold lines, nested lists bullets, quotes Slack quotes", () => {
    const { text, formatting } = shown("# Title\n\n- a\n  - b\n\n> quoted\n> more");
    expect(text).toBe("Title\n\n• a\n    • b\n\nquoted\nmore");
    expect(formatting).toEqual([
      { kind: "bold", offset: 0, length: 5 },
      { kind: "quote", offset: 20, length: 11 },
    ]);
  });

  it("code blocks keep every character (the language is not shown: mrkdwn has none)", () => {
    const { text, formatting } = shown("```ts\nif (a < b && *c*) {}\n```");
    expect(text).toBe("if (a < b && *c*) {}");
    expect(formatting).toEqual([{ kind: "pre", offset: 0, length: 20 }]);
  });

  it("links with parentheses and pipes keep their target", () => {
    const { formatting } = shown("[w](https://en.wikipedia.org/wiki/A_(b)|c)");
    expect(formatting[0]?.url).toBe("https://en.wikipedia.org/wiki/A_(b)%7Cc");
  });

  it("mentions are shown as typed and ping nobody unless the integrator allows them", () => {
    const off = slackRenderer.render(parseReplyMarkdown("Hi <!channel> and <@U123ABC>"));
    expect(off).not.toMatch(/<[!@]/);
    expect(decodeMrkdwn(off).text).toBe("Hi <!channel> and <@U123ABC>");
    const on = createSlackRenderer({ mentions: true }).render(
      parseReplyMarkdown("Hi <!channel> and <@U123ABC> <b>"),
    );
    expect(on).toBe("Hi <!channel> and <@U123ABC> &lt;b&gt;");
  });

  it("measures the text as sent (UTF-16 units of the mrkdwn)", () => {
    expect(slackRenderer.measure("a &amp; 😀")).toBe(10);
  });

  it("plain text is readable and escaped", () => {
    expect(slackRenderer.plain(parseReplyMarkdown("**a** [b](https://x.y) <c>"))).toBe(
      "a b (<https://x.y>) &lt;c&gt;",
    );
  });
});
