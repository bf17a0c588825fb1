/** Formatting spans made visible: marked up in plain output, styled in a terminal. */
import { stripVTControlCharacters } from "node:util";
import type { ObservedFormat } from "@outbox/core";
import pc from "picocolors";
import { describe, expect, it } from "vitest";
import { firstLines, showFormatted } from "../src/output/formatted.js";

const text = "Deploy done: all green, two zero errors.\nsee the runbook\nhidden\nquoted line\nnext";
const spans: ObservedFormat[] = [
  { kind: "bold", offset: 7, length: 4 }, // done
  { kind: "italic", offset: 13, length: 3 }, // all
  { kind: "strike", offset: 24, length: 3 }, // two
  { kind: "code", offset: 28, length: 4 }, // zero
  { kind: "link", offset: 49, length: 7, url: "https://example.com/rb" }, // runbook
  { kind: "spoiler", offset: 57, length: 6 }, // hidden
  { kind: "quote", offset: 64, length: 16 }, // quoted line\nnext
];

describe("showFormatted", () => {
  it("plain: marks every kind up in place", () => {
    expect(showFormatted(text, spans, { mode: "plain" })).toBe(
      "Deploy **done**: _all_ green, ~~two~~ `zero` errors.\nsee the [runbook](https://example.com/rb)\n||hidden||\n> quoted line\n> next",
    );
  });

  it("plain: nested spans close innermost first; a pre block keeps its language", () => {
    const nested: ObservedFormat[] = [
      { kind: "bold", offset: 0, length: 9 },
      { kind: "italic", offset: 5, length: 4 },
    ];
    expect(showFormatted("very good", nested, { mode: "plain" })).toBe("**very _good_**");
    expect(
      showFormatted("x = 1", [{ kind: "pre", offset: 0, length: 5, language: "ts" }], { mode: "plain" }),
    ).toBe("```ts\nx = 1\n```");
  });

  it("tty: styles each piece with the spans covering it, and shows a link's target", () => {
    const colors = pc.createColors(true);
    const out = showFormatted(text, spans, { mode: "tty", colors });
    expect(out).toContain(colors.bold("done"));
    expect(out).toContain(colors.italic("all"));
    expect(out).toContain(colors.strikethrough("two"));
    expect(out).toContain(colors.cyan("zero"));
    expect(out).toContain(
      `${colors.underline(colors.blue("runbook"))}${colors.dim(" <https://example.com/rb>")}`,
    );
    expect(out).toContain(colors.inverse("hidden"));
    expect(stripVTControlCharacters(out)).toBe(
      "Deploy done: all green, two zero errors.\nsee the runbook <https://example.com/rb>\nhidden\nquoted line\nnext",
    );
  });

  it("no spans: the text as it is", () => {
    expect(showFormatted("plain", undefined, { mode: "plain" })).toBe("plain");
  });
});

describe("firstLines", () => {
  it("keeps the first lines and clips the spans to them", () => {
    const cut = firstLines(text, spans, 2);
    expect(cut.text).toBe("Deploy done: all green, two zero errors.\nsee the runbook");
    expect(cut.hidden).toBe(3);
    expect(cut.spans.map((s) => s.kind)).toEqual(["bold", "italic", "strike", "code", "link"]);
  });
});
