import { describe, expect, it } from "vitest";
import { decodeMarkdown } from "../src/testing/index.js";

describe("decodeMarkdown (the kit's reader for emulators that show Markdown)", () => {
  it("shows the text a CommonMark client shows, with its spans and lines", () => {
    const read = decodeMarkdown(
      "## Plan\n\n**Bold** and `code` [site](https://example.com)\n\n1. one\n2. two\n\n> quoted",
    );
    expect(read.text).toBe("Plan\n\nBold and code site\n\n1. one\n2. two\n\nquoted");
    expect(read.formatting.map(({ kind, offset, length }) => [kind, offset, length])).toEqual([
      ["bold", 6, 4],
      ["code", 15, 4],
      ["link", 20, 4],
      ["quote", 41, 6],
    ]);
    expect(read.formatting[2]?.url).toBe("https://example.com");
    expect(read.lines.map((line) => line.kind)).toEqual([
      "heading",
      "blank",
      "text",
      "blank",
      "item",
      "item",
      "blank",
      "quote",
    ]);
  });
});
