/**
 * Splitting without rendering the reply whole first: only to learn whether it fits one
 * message, that rendering was a third of planning a long reply. Packing its blocks (or
 * cutting its one long block) answers the question as well, and a reply that does fit is
 * still one chunk holding its own tree.
 */
import type { Root } from "mdast";
import { describe, expect, it } from "vitest";
import type { Renderer } from "../../src/adapter/types.js";
import { parseReplyMarkdown } from "../../src/markdown/parse-reply-markdown.js";
import { splitText } from "../../src/plan/split-text.js";
import { htmlRenderer } from "../markdown/support/html-renderer.js";

/** `base`, with every tree it renders recorded. */
function recording(base: Renderer, renders: Root[]): Renderer {
  return {
    ...base,
    render: (tree) => {
      renders.push(tree);
      return base.render(tree);
    },
  };
}

/** Units of every rendering, over the units of the reply rendered once. */
function renderedPerUnit(text: string, limit: number): number {
  const tree = parseReplyMarkdown(text);
  const renders: Root[] = [];
  splitText(tree, recording(htmlRenderer, renders), limit);
  const units = renders.reduce((sum, rendered) => sum + htmlRenderer.render(rendered).length, 0);
  return units / htmlRenderer.render(tree).length;
}

describe("splitting a reply too long for one message", () => {
  it("never renders the whole reply of many blocks", () => {
    const tree = parseReplyMarkdown("x\n\n".repeat(2000));
    const renders: Root[] = [];
    const chunks = splitText(tree, recording(htmlRenderer, renders), 1000);
    expect(chunks.length).toBeGreaterThan(1);
    expect(renders.filter((rendered) => rendered.children.length === tree.children.length)).toEqual([]);
  });

  it("renders a long paragraph about twice (per chunk, a probe that fits and one that does not)", () => {
    // Rendered whole first, then cut: about three times.
    expect(renderedPerUnit("*a".repeat(50_000), 4000)).toBeLessThan(2.5);
  });
});

describe("a reply that fits one message", () => {
  it("is one chunk holding its own tree, a long paragraph as much as many blocks", () => {
    // Measured at a quarter of their length: more units than the limit, yet they fit.
    const compact: Renderer = { ...htmlRenderer, measure: (rendered) => Math.ceil(rendered.length / 4) };
    for (const text of ["a".repeat(6000), "x\n\n".repeat(2000)]) {
      const tree = parseReplyMarkdown(text);
      const chunks = splitText(tree, compact, 1500);
      expect(chunks).toEqual([{ tree, rendered: htmlRenderer.render(tree) }]);
      expect(chunks[0]?.tree).toBe(tree);
    }
  });

  it("is one chunk where packing its blocks overestimated it (a measure that is not additive)", () => {
    // Each block boundary past the first weighs 5 less than the two-block probe says: 30
    // blocks weigh 218 together, their estimate 358.
    const subAdditive: Renderer = {
      ...htmlRenderer,
      measure: (rendered) => rendered.length - 5 * Math.max(0, rendered.split("\n\n").length - 2),
    };
    const tree = parseReplyMarkdown("0123456789\n\n".repeat(30));
    const whole = htmlRenderer.render(tree);
    expect(subAdditive.measure(whole)).toBe(218);
    const chunks = splitText(tree, subAdditive, 250);
    expect(chunks).toEqual([{ tree, rendered: whole }]);
  });
});
