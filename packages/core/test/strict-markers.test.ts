import { describe, expect, it } from "vitest";
import { decodeStrictMarkers, type MarkerDialect } from "../src/adapter/strict-markers.js";

/** A dialect whose `[…]` runs are literal (as a platform's links are), blocks trimmed. */
const DIALECT: MarkerDialect = {
  block: (content) => content.trim(),
  quote: /^> ?/,
  inline(line, atoms) {
    for (const part of line.split(/(\[[^\]]*\])/))
      for (const char of part) atoms.push({ char, literal: part.startsWith("[") });
  },
};

describe("decodeStrictMarkers", () => {
  it("pairs markers at word boundaries on one line, code first, and merges quote lines", () => {
    expect(decodeStrictMarkers("> *a* _b_ `*c*`\n> ~d~ 2*3*4", DIALECT)).toEqual({
      text: "a b *c*\nd 2*3*4",
      formatting: [
        { kind: "quote", offset: 0, length: 15 },
        { kind: "bold", offset: 0, length: 1 },
        { kind: "italic", offset: 2, length: 1 },
        { kind: "code", offset: 4, length: 3 },
        { kind: "strike", offset: 8, length: 1 },
      ],
    });
  });

  it("keeps the dialect's literal atoms and a zero-width space from pairing; blocks show as the dialect says", () => {
    expect(decodeStrictMarkers("[*x*] *\u200by* *z\n*\n```\n *q* \n```", DIALECT)).toEqual({
      text: "[*x*] *y* *z\n*\n*q*",
      formatting: [{ kind: "pre", offset: 15, length: 3 }],
    });
  });
});
