import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeHtml, visibleLength, visibleText } from "../src/render/escape.js";

const pieces = [
  "<b>",
  "</b>",
  "<",
  ">",
  "&",
  "&amp;",
  "&lt;",
  "&quot;",
  "&#65;",
  "&#x1F600;",
  "&unknown;",
  "&#",
  ";",
  "a",
  "é",
  "😀",
  "\n",
  " ",
];

describe("visibleLength (one pass)", () => {
  it("equals the length of the visible text, for any mix of tags, entities and text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const html = parts.join("");
        expect(visibleLength(html)).toBe(visibleText(html).length);
      }),
      { numRuns: 2_000 },
    );
  });

  it("escapeHtml leaves text without & < > as is and escapes the rest in one pass", () => {
    const plain = "plain text, no specials";
    expect(escapeHtml(plain)).toBe(plain);
    expect(escapeHtml("a<b>&c")).toBe("a&lt;b&gt;&amp;c");
  });
});
