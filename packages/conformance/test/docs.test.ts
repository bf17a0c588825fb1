import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { conformanceCases } from "../src/cases/registry.js";

const doc = readFileSync(new URL("../../../docs/conformance.md", import.meta.url), "utf8");

/** The cells of a Markdown table row, trimmed, with `\|` unescaped. */
const cells = (row: string): string[] =>
  row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, "|"));

describe("docs/conformance.md", () => {
  it("has one table row per case, with what it sends, checks, its gate and what a platform that differs declares, in run order", () => {
    const rows = doc
      .split("\n")
      .filter((line) => /^\| `[a-z]+\.[a-z0-9.-]+` \|/.test(line))
      .map((line) => cells(line.trim()));
    expect(rows).toEqual(
      conformanceCases.map((c) => [
        `\`${c.id}\``,
        c.sends,
        c.checks,
        c.gate,
        c.differs ?? "nothing: every adapter must pass it",
      ]),
    );
  });
});
