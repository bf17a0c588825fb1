import { parseMarkdown, parseReplyMarkdown } from "@outbox/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sanitizeHtml, webRenderer } from "../src/index.js";
import { renderArticle } from "../src/server/article.js";
import { authed, createEmulatedChannel, type WebEmulatedChannel } from "./support.js";
import { executableConstructs, XSS_PAYLOADS } from "./xss.js";

let channel: WebEmulatedChannel;
beforeEach(async () => {
  channel = await createEmulatedChannel();
});
afterEach(async () => {
  await channel.close();
});

/** The `<main>` of a page. */
const mainOf = (page: string) => page.slice(page.indexOf("<main"), page.indexOf("</main>"));

describe("untrusted text renders as text", () => {
  it("no payload puts an executable construct on the page or in the stream", async () => {
    for (const payload of XSS_PAYLOADS)
      await channel.adapter.send({ text: `Look: ${payload} end` }, channel.target);
    const main = mainOf(await (await authed(channel, "")).text());
    expect(main.match(/<article /g)).toHaveLength(XSS_PAYLOADS.length + 1);
    expect(executableConstructs(main)).toEqual([]);
  });

  it("raw HTML shows as its own text", async () => {
    await channel.adapter.send(
      { text: "<script>alert(1)</script> and <img src=x onerror=alert(1)>" },
      channel.target,
    );
    expect(channel.observe()[0]?.text).toBe("<script>alert(1)</script> and <img src=x onerror=alert(1)>");
  });

  it("a javascript: link keeps its words and loses its target; an https link keeps both", () => {
    const html = webRenderer.render(
      parseMarkdown("[bad](javascript:alert(1)) [good](https://example.com/a?b=1&c=2)"),
    );
    expect(html).toBe(
      '<p>bad <a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow" target="_blank">good</a></p>',
    );
  });

  it("the sanitizer alone neutralizes hostile HTML (defence in depth behind the renderer)", () => {
    // The checker sees the raw payloads as executable, so its empty verdicts below mean something.
    expect(XSS_PAYLOADS.filter((payload) => executableConstructs(payload).length > 0).length).toBeGreaterThan(
      20,
    );
    for (const payload of XSS_PAYLOADS)
      expect(executableConstructs(sanitizeHtml(payload)), payload).toEqual([]);
    expect(sanitizeHtml('<span class="ob-spoiler x">s</span><code class="language-ts evil">c</code>')).toBe(
      '<span class="ob-spoiler">s</span><code class="language-ts">c</code>',
    );
  });

  it("a store holding hostile HTML still renders inert articles", () => {
    for (const payload of XSS_PAYLOADS) {
      const article = renderArticle({
        id: '"><script>alert(1)</script>',
        conversation: "c",
        author: "assistant",
        kind: "text",
        html: payload,
        replyTo: "<img src=x onerror=alert(1)>",
        createdAt: "2026-01-01T00:00:00.000Z",
      });
      expect(executableConstructs(article), payload).toEqual([]);
    }
  });

  it("keeps the formatting the contract names", () => {
    const html = webRenderer.render(
      parseReplyMarkdown(
        "**b** _i_ ~~s~~ `c` ||sp||\n\n> q\n\n```ts\nx < 1\n```\n\n[l](https://example.com)",
      ),
    );
    expect(html).toBe(
      '<p><strong>b</strong> <em>i</em> <del>s</del> <code>c</code> <span class="ob-spoiler">sp</span></p>' +
        "<blockquote><p>q</p></blockquote>" +
        '<pre><code class="language-ts">x &lt; 1</code></pre>' +
        '<p><a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">l</a></p>',
    );
  });
});
