import { describe, expect, it } from "vitest";
import { observedLines } from "../src/adapter/observed-lines.js";

describe("observedLines", () => {
  it("reads paragraphs, hard breaks and blank lines", () => {
    expect(observedLines("one\ntwo\n\nthree")).toEqual([
      { kind: "text", text: "one" },
      { kind: "text", text: "two" },
      { kind: "blank", text: "" },
      { kind: "text", text: "three" },
    ]);
  });

  it("reads list items with their depth from the indentation and their numbers", () => {
    expect(observedLines("• a\n  • b\n     ◦ c\n  • d\n• e\n\n3. x\n   - y\n4) z")).toEqual([
      { kind: "item", text: "a", depth: 1 },
      { kind: "item", text: "b", depth: 2 },
      { kind: "item", text: "c", depth: 3 },
      { kind: "item", text: "d", depth: 2 },
      { kind: "item", text: "e", depth: 1 },
      { kind: "blank", text: "" },
      { kind: "item", text: "x", depth: 1, number: 3 },
      { kind: "item", text: "y", depth: 2 },
      { kind: "item", text: "z", depth: 1, number: 4 },
    ]);
  });

  it("reads code lines verbatim and quote lines from the spans over them", () => {
    const text = "said:\nq1\nq2\n- not an item\n  indented\nend";
    const lines = observedLines(text, [
      { kind: "quote", offset: 6, length: 5 },
      { kind: "pre", offset: 12, length: 23 },
      { kind: "bold", offset: 0, length: 4 },
    ]);
    expect(lines).toEqual([
      { kind: "text", text: "said:" },
      { kind: "quote", text: "q1" },
      { kind: "quote", text: "q2" },
      { kind: "code", text: "- not an item" },
      { kind: "code", text: "  indented" },
      { kind: "text", text: "end" },
    ]);
  });
});
