import { parseReplyMarkdown, splitText } from "@outbox/core";
import fc from "fast-check";
import type { Root } from "mdast";
import { describe, expect, it } from "vitest";
import { discordRenderer } from "../src/index.js";
import { decodeDiscordMarkdown } from "../src/testing/index.js";

const render = (markdown: string) => discordRenderer.render(parseReplyMarkdown(markdown));
const shown = (markdown: string) => decodeDiscordMarkdown(render(markdown));

describe("Discord renderer", () => {
  it("renders formatting natively", () => {
    expect(render("**b** _i_ ~~s~~ `c` ||p|| [docs](https://example.com/a_(b))")).toBe(
      "**b** *i* ~~s~~ `c` ||p|| [docs](https://example.com/a_%28b%29)",
    );
    expect(render("# One\n\n#### Four\n\n> quoted\n\n- a\n- b\n\n3. c")).toBe(
      "# One\n\n**Four**\n\n> quoted\n\n- a\n- b\n\n3. c",
    );
  });

  it("escapes what Discord would misread, so the client shows the text as written", () => {
    for (const text of [
      "a_b_c * ~~x~~ ||y|| `z` <@123> <t:1:R> [x](y) # not a heading",
      "- not a list\n1. not a list\n> not a quote\n-# not subtext",
      "@everyone \\ back\\slash",
    ]) {
      const tree = parseReplyMarkdown("");
      tree.children = [{ type: "paragraph", children: [{ type: "text", value: text }] }];
      const decoded = decodeDiscordMarkdown(discordRenderer.render(tree));
      expect(decoded.text).toBe(text);
      expect(decoded.formatting).toEqual([]);
    }
  });

  it("keeps inline code and code blocks literal, even with backticks inside", () => {
    expect(shown("``a ` b``").text).toBe("a ` b");
    const fence = shown("````md\n```inner```\n````");
    expect(fence.formatting).toEqual([expect.objectContaining({ kind: "pre", language: "md" })]);
    expect(fence.text.replaceAll("\u200b", "")).toBe("```inner```");
  });

  it("renders a table as a code block with aligned columns", () => {
    const tree: Root = {
      type: "root",
      children: [
        {
          type: "table",
          children: [
            {
              type: "tableRow",
              children: [
                { type: "tableCell", children: [{ type: "text", value: "name" }] },
                { type: "tableCell", children: [{ type: "text", value: "n" }] },
              ],
            },
            {
              type: "tableRow",
              children: [
                { type: "tableCell", children: [{ type: "text", value: "a" }] },
                {
                  type: "tableCell",
                  children: [{ type: "strong", children: [{ type: "text", value: "42" }] }],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(discordRenderer.render(tree)).toBe("```\nname | n\n-----|---\na    | 42\n```");
  });

  it("renders links without a label as autolinks and drops unsafe schemes", () => {
    expect(render("<https://example.com/x>")).toBe("<https://example.com/x>");
    expect(render("https://example.com/x")).toBe("https://example.com/x");
    expect(render("[click](javascript:alert(1))")).toBe("click");
  });

  it("splits long code into chunks within 2000, each fence closed and reopened with its language", () => {
    const code = Array.from({ length: 300 }, (_, i) => `const line${i} = ${i};`).join("\n");
    const chunks = splitText(parseReplyMarkdown(`\`\`\`ts\n${code}\n\`\`\``), discordRenderer, 2000);
    expect(chunks.length).toBeGreaterThan(2);
    const decoded = chunks.map((chunk) => {
      expect(discordRenderer.measure(chunk.rendered)).toBeLessThanOrEqual(2000);
      return decodeDiscordMarkdown(chunk.rendered);
    });
    for (const part of decoded)
      expect(part.formatting).toEqual([{ kind: "pre", offset: 0, length: part.text.length, language: "ts" }]);
    expect(decoded.map((part) => part.text).join("\n")).toBe(code);
  });

  it("any text shows exactly as written, with no formatting (property)", () => {
    const chars = fc.constantFrom(..."ab 1.-+#>*_~`|[]()<>\\@:/\n\tπ😀".split(""));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 40 }), (list) => {
        const text = list
          .join("")
          .replace(/\n[ \t]*(?=\n)/g, "\n")
          .trim();
        const tree = parseReplyMarkdown("");
        tree.children = [{ type: "paragraph", children: [{ type: "text", value: text }] }];
        const decoded = decodeDiscordMarkdown(discordRenderer.render(tree));
        expect(decoded.text).toBe(text);
        expect(decoded.formatting).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});
