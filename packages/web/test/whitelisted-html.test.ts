import { cpuMs, hostileMarkdown } from "@outbox/conformance";
import { parseReplyMarkdown, planDelivery } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { webCapabilities, webRenderer } from "../src/index.js";
import { renderMarkdownHtml } from "../src/render/html-renderer.js";
import { parseAndSanitize, sanitizeHtml } from "../src/render/sanitize.js";
import { passWhitelisted } from "../src/render/whitelisted-html.js";
import { XSS_PAYLOADS } from "./xss.js";

/** Replies of every construct the renderer writes, with the characters escaping touches. */
const REPLIES = [
  "# Title\n\nA *b* **c** ~~d~~ `e` ||spoiler|| <b>raw</b> & \"q\" 'a' > <",
  "1. one\n2. two\n   - nested\n   - more\n\n3) x\n\n5. five\n6. six",
  "> quote\n> > deeper\n\n- [x] task\n\n---\n\nline  \nbreak",
  "```ts\nconst a = \"<b>\" && 'x';\n```\n\n```\nplain\n```\n\n    indented",
  "[docs](https://example.com/a?b=1&c=2&quot;) <https://x.example> mailto:a@b.example [m](mailto:a@b.example)",
  "[bad](javascript:alert(1)) [tg](tg://resolve?domain=x) ![img](https://example.com/i.png)",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "- loose\n\n- list\n\n  with paragraphs",
  ...XSS_PAYLOADS,
  ...Object.values(hostileMarkdown).map((family) => family(2048)),
];

describe("the sanitizer's fast path", () => {
  it("returns exactly what sanitize-html returns, for the renderer's output of every reply", () => {
    for (const reply of REPLIES) {
      const html = renderMarkdownHtml(parseReplyMarkdown(reply));
      expect(passWhitelisted(html), reply).toBe(parseAndSanitize(html));
    }
  });

  it("leaves anything outside the renderer's forms to sanitize-html", () => {
    for (const html of [
      '<p onclick="x">a</p>',
      '<a href="javascript:alert(1)">a</a>',
      "<p><ul><li>a</li></ul></p>",
      "<em>unclosed",
      "<script>alert(1)</script>",
      "a &nbsp; b",
      "a > b",
      '<code class="evil">x</code>',
    ])
      expect(passWhitelisted(html), html).toBeUndefined();
    for (const html of XSS_PAYLOADS) expect(sanitizeHtml(html), html).toBe(parseAndSanitize(html));
  });

  // Relative CPU, not wall time: planning costs a few renderings, where sanitize-html at every
  // probe of a cut cost ten times as many (ratio ~40 before the fast path, ~6 with it).
  it("plans a hostile reply for a few times the cost of rendering it", () => {
    const tree = parseReplyMarkdown(hostileMarkdown["marker runs"](128 * 1024));
    let render = Number.POSITIVE_INFINITY;
    let plan = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round += 1) {
      render = Math.min(
        render,
        cpuMs(() => renderMarkdownHtml(tree)),
      );
      plan = Math.min(
        plan,
        cpuMs(() => planDelivery({ tree, media: [], audioAsVoice: false }, webCapabilities, webRenderer)),
      );
    }
    expect(plan / render).toBeLessThan(15);
  });
});
