import type { Root } from "mdast";
import { describe, expect, it } from "vitest";
import { cpuGrowth } from "../../../conformance/src/growth.js";
import { type HostileFamilyName, hostileMarkdown } from "../../../conformance/src/hostile-markdown.js";
import { replyTree } from "../../src/markdown/parse-reply-markdown.js";
import { toPlainText } from "../../src/markdown/plain-text.js";
import { splitText } from "../../src/plan/split-text.js";
import { htmlRenderer } from "../markdown/support/html-renderer.js";

/** The trees of a family by size, parsed once: only splitting is timed. */
function trees(family: HostileFamilyName): (size: number) => Root {
  const parsed = new Map<number, Root>();
  return (size) => {
    let tree = parsed.get(size);
    if (tree === undefined) {
      tree = replyTree(hostileMarkdown[family](size));
      parsed.set(size, tree);
    }
    return tree;
  };
}

const letters = (text: string): string => text.replace(/[^\p{L}\p{N}]/gu, "");

describe("splitText on hostile text", () => {
  // Cutting the rest of a block again and again copied all of its children at every cut, and
  // taking the next block shifted the whole queue: 4× the text took 9-20× the time (exponent
  // 1.6-2.2). Linear work gives an exponent near 1; measured over 8× the text so a run slowed
  // by another process's load moves the exponent half as much as over 4×.
  it.each<HostileFamilyName>(["marker runs", "alternating markers", "many tiny blocks", "link storm"])(
    "grows linearly with the text: %s",
    (family) => {
      const tree = trees(family);
      const growth = cpuGrowth((size) => splitText(tree(size), htmlRenderer, 4096), 64 * 1024, 8, 3);
      expect(growth.exponent, JSON.stringify(growth)).toBeLessThan(1.45);
    },
  );

  it("loses no letter of a paragraph of 50,000 emphasis nodes cut into chunks", () => {
    const text = hostileMarkdown["marker runs"](100_000);
    const chunks = splitText(replyTree(text), htmlRenderer, 4096);
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(htmlRenderer.measure(chunk.rendered)).toBeLessThanOrEqual(4096);
    expect(chunks.map((chunk) => letters(toPlainText(chunk.tree))).join("")).toBe(letters(text));
  });
});
