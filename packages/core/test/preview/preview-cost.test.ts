import { describe, expect, it } from "vitest";
import type { Renderer } from "../../src/adapter/types.js";
import { createPlainRenderer } from "../../src/markdown/plain-text.js";
import { createPreviewText, previewText } from "../../src/preview/preview-text.js";
import { createRunText } from "../../src/stream/run-text.js";
import { testCapabilities } from "../engine/support/recording-transport.js";

const LIMIT = 4096;
const capabilities = testCapabilities({ text: { maxLength: LIMIT, format: "plain" } });

/** The plain renderer, counting every character it renders. */
function countingRenderer(): { renderer: Renderer; rendered: () => number } {
  const plain = createPlainRenderer();
  let rendered = 0;
  const renderer: Renderer = {
    render: (tree) => {
      const text = plain.render(tree);
      rendered += text.length;
      return text;
    },
    measure: plain.measure,
    plain: plain.plain,
  };
  return { renderer, rendered: () => rendered };
}

const paragraph = (i: number) => `Paragraph ${i} says **something** about the reply, in a few more words.`;
const prose = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => paragraph(from + i)).join("\n\n");

describe("live preview cost past the text limit", () => {
  it("previewText of a 1 MB reply renders only a window at its head, and shows the head", () => {
    const markdown = prose(15_000);
    expect(markdown.length).toBeGreaterThan(1_000_000);
    const { renderer, rendered } = countingRenderer();
    const shown = previewText(markdown, capabilities, renderer);
    expect(shown?.text.startsWith("Paragraph 0 says something")).toBe(true);
    expect(shown?.text.endsWith("…")).toBe(true);
    expect(renderer.measure(shown?.text ?? "")).toBeLessThanOrEqual(LIMIT);
    expect(rendered()).toBeLessThan(16 * LIMIT);
  });

  it("once a head is shown, a text that only grows after it is neither parsed nor rendered again", () => {
    const { renderer, rendered } = countingRenderer();
    const preview = createPreviewText(capabilities, renderer);
    let markdown = prose(40);
    const fits = preview(markdown);
    expect(fits?.text.endsWith("…")).toBe(false);
    // Paragraph by paragraph past the limit, then on to several limits: the head shown at
    // first stays, at no cost per update.
    let head: string | undefined;
    let renderedAtHead = 0;
    for (let i = 40; i < 400; i += 1) {
      markdown += `\n\n${paragraph(i)}`;
      const text = preview(markdown)?.text;
      if (head === undefined && text?.endsWith("…")) {
        head = text;
        renderedAtHead = rendered();
      } else if (head !== undefined) expect(text).toBe(head);
    }
    expect(head).toBeDefined();
    expect(rendered()).toBe(renderedAtHead);
    // A text that does not extend it (rewritten from the start) is read again.
    expect(preview(`Rewritten. ${markdown}`)?.text.startsWith("Rewritten.")).toBe(true);
    expect(rendered()).toBeGreaterThan(renderedAtHead);
  });

  it("the window grows while what it holds renders within the limit (directives render nothing)", () => {
    const directives = Array.from({ length: 3000 }, (_, i) => `MEDIA:https://example.com/${i}.png`).join(
      "\n",
    );
    const shown = previewText(`${directives}\n\n${prose(2000)}`, capabilities, createPlainRenderer());
    expect(shown?.text.startsWith("Paragraph 0 says something")).toBe(true);
    expect(shown?.text.endsWith("…")).toBe(true);
  });

  it("the accumulator stops reading once its text is four limits long, and says more follows", () => {
    const accumulator = createRunText({}, { limit: LIMIT });
    for (let i = 0; i < 2000; i += 1) for (const delta of [paragraph(i), "\n\n"]) accumulator.push(delta);
    const text = accumulator.shown();
    expect(text.length).toBeGreaterThanOrEqual(4 * LIMIT);
    expect(text.length).toBeLessThan(4 * LIMIT + 200);
    expect(text.endsWith("\n\n…")).toBe(true);
    accumulator.push(`${paragraph(9999)}\n\n`);
    expect(accumulator.shown()).toBe(text);
  });

  it("without a limit the accumulator keeps every paragraph", () => {
    const accumulator = createRunText({});
    for (let i = 0; i < 500; i += 1) for (const delta of [paragraph(i), "\n\n"]) accumulator.push(delta);
    expect(accumulator.shown()).toBe(prose(500).replace(/\*\*/g, "**"));
  });
});
