import type { Root } from "mdast";
import { describe, expect, it } from "vitest";
import type { Renderer } from "../../src/adapter/types.js";
import { parseReplyMarkdown } from "../../src/markdown/parse-reply-markdown.js";
import { splitText } from "../../src/plan/split-text.js";
import { htmlRenderer } from "../markdown/support/html-renderer.js";

/** `htmlRenderer` measured with a fixed cost per message, like Matrix's event envelope. */
function envelopeRenderer(envelope: number, perBlockExtra = 0, renders: Root[] = []): Renderer {
  return {
    ...htmlRenderer,
    render: (tree) => {
      renders.push(tree);
      return htmlRenderer.render(tree);
    },
    // `perBlockExtra`: weight blocks have together past the second (the estimate cannot see it).
    measure: (rendered) =>
      envelope + rendered.length + perBlockExtra * Math.max(0, rendered.split("\n\n").length - 2),
  };
}

describe("packing blocks under a measure with a fixed cost per message", () => {
  const text = "x\n\n".repeat(2000);

  it("fills each chunk instead of paying the fixed cost once per block", () => {
    // Counted as a cost per block, 1,000 units of envelope let 3 of these blocks into a chunk
    // of 4,000: 667 chunks where 3 hold them.
    const chunks = splitText(parseReplyMarkdown(text), envelopeRenderer(1000), 4000);
    expect(chunks.length).toBeLessThanOrEqual(3);
    expect(chunks.map((c) => c.rendered).join("\n\n")).toBe(Array(2000).fill("x").join("\n\n"));
  });

  it("takes back blocks the estimate let in by bisection, losing and reordering none", () => {
    // Past the second, every block weighs 5 more than the estimate knows: it lets in 1,333
    // blocks where 500 fit.
    const renders: Root[] = [];
    const renderer = envelopeRenderer(0, 5, renders);
    const chunks = splitText(parseReplyMarkdown(text), renderer, 4000);
    for (const chunk of chunks) expect(renderer.measure(chunk.rendered)).toBeLessThanOrEqual(4000);
    expect(chunks.map((c) => c.rendered).join("\n\n")).toBe(Array(2000).fill("x").join("\n\n"));
    const rendersOfChunks = renders.filter((tree) => tree.children.length > 1).length;
    // About ten renders per chunk (log2 of 1,333 blocks); put back one at a time, ~830.
    expect(rendersOfChunks).toBeLessThanOrEqual(chunks.length * 12);
  });
});
