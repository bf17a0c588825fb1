import { describe, expect, it } from "vitest";
import { cpuGrowth } from "../../../conformance/src/growth.js";
import { createBlockSplitter } from "../../src/stream/block-splitter.js";
import { findCuts } from "../../src/stream/line-scan.js";
import { deltasOf } from "./deltas.js";

const para = (word: string, n: number): string => Array.from({ length: n }, () => word).join(" ");

describe("createBlockSplitter", () => {
  it("cuts at the last paragraph boundary between minChars and maxChars, and holds the rest", () => {
    const splitter = createBlockSplitter({ minChars: 10, maxChars: 60 });
    const text = `${para("aa", 5)}\n\n${para("bb", 5)}\n\n${para("cc", 5)}\n\nunfinished`;
    expect(splitter.push(text)).toEqual([`${para("aa", 5)}\n\n${para("bb", 5)}\n\n${para("cc", 5)}\n\n`]);
    expect(splitter.pending).toBe("unfinished");
  });

  it("waits for minChars, then for the boundary to be complete", () => {
    const splitter = createBlockSplitter({ minChars: 20, maxChars: 100 });
    expect(splitter.push("short\n\n")).toEqual([]);
    expect(splitter.push("a second paragraph")).toEqual([]);
    expect(splitter.push("\n")).toEqual([]);
    expect(splitter.push("\n")).toEqual(["short\n\na second paragraph\n\n"]);
  });

  it("never cuts inside a fence, even past maxChars, and cuts right after it closes", () => {
    const splitter = createBlockSplitter({ minChars: 5, maxChars: 30 });
    const fence = "```ts\nconst a = 1;\n\nconst b = 2;\n\nconst c = 3;\n```\n";
    expect(splitter.push(`Intro line here.\n\n${fence.slice(0, 30)}`)).toEqual(["Intro line here.\n\n"]);
    expect(splitter.push(fence.slice(30, -4))).toEqual([]);
    expect(splitter.push(fence.slice(-4))).toEqual([fence]);
  });

  it("a tilde fence is closed only by tildes at least as long", () => {
    const cuts = findCuts("~~~~\n```\n\n~~~\n\n~~~~\n\nafter\n");
    expect(cuts.breaks).toEqual([20, 21]);
    expect(cuts.openFence).toBeUndefined();
  });

  it("cuts a long paragraph at a line end, never inside a line", () => {
    const splitter = createBlockSplitter({ minChars: 5, maxChars: 30 });
    const blocks = splitter.push("line one is here\nline two is here\nline three is here\nrest");
    expect(blocks).toEqual(["line one is here\n", "line two is here\n"]);
    // What is left fits maxChars: it waits for a paragraph boundary.
    expect(splitter.pending).toBe("line three is here\nrest");
  });

  it("keeps a MEDIA: line whole in its block", () => {
    const splitter = createBlockSplitter({ minChars: 5, maxChars: 60 });
    const blocks = splitter.push("Here is the chart.\nMEDIA:/tmp/charts/q3 revenue.png\n\nNext");
    expect(blocks).toEqual(["Here is the chart.\nMEDIA:/tmp/charts/q3 revenue.png\n\n"]);
  });

  it("flush scopes: lines, paused (not an open fence), paragraphs, end", () => {
    const lines = createBlockSplitter({ minChars: 500, maxChars: 1000 });
    lines.push("done line\nhalf a li");
    expect(lines.flush("lines")).toEqual(["done line\n"]);
    expect(lines.pending).toBe("half a li");

    const paused = createBlockSplitter({ minChars: 500, maxChars: 1000 });
    paused.push("text\n\n```\ncode\n");
    expect(paused.flush("paused")).toEqual(["text\n\n"]);
    expect(paused.flush("end")).toEqual(["```\ncode\n"]);

    const paragraphs = createBlockSplitter({ minChars: 500, maxChars: 1000 });
    paragraphs.push("one\n\ntwo unfinished");
    expect(paragraphs.flush("paragraphs")).toEqual(["one\n\n"]);
    expect(paragraphs.pending).toBe("two unfinished");
  });

  it("a long fence streamed in 6-character deltas is held whole at linear cost, and cut right after it closes", () => {
    const stream = (size: number): string[] => {
      const splitter = createBlockSplitter({ minChars: 200, maxChars: 1500 });
      const fence = `\`\`\`\n${"const line = 1;\n".repeat(size / 16)}\`\`\`\n`;
      const blocks: string[] = [];
      for (const delta of deltasOf(fence, 6)) blocks.push(...splitter.push(delta));
      expect(blocks).toEqual([fence]);
      expect(splitter.pending).toBe("");
      return blocks;
    };
    const growth = cpuGrowth(stream, 32 * 1024, 8, 3);
    expect(growth.exponent, JSON.stringify(growth)).toBeLessThan(1.4);
  });
});
