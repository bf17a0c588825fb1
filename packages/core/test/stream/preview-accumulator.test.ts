import { describe, expect, it } from "vitest";
import { createPreviewAccumulator } from "../../src/stream/preview-accumulator.js";

/** Push `delta`, then read the text to show. */
const step = (preview: ReturnType<typeof createPreviewAccumulator>, delta: string): string => {
  preview.push(delta);
  return preview.text();
};

describe("preview accumulator", () => {
  it("shows settled paragraphs, the current lines, and the partial line unless it may become a directive", () => {
    const preview = createPreviewAccumulator({});
    expect(preview.text()).toBe("");
    expect(step(preview, "First [[reply_to_current]] para.\n\nSec")).toBe("First para.\n\nSec");
    expect(step(preview, "ond line\nMED")).toBe("First para.\n\nSecond line");
    expect(step(preview, "IA:/w/a.png\n```\ncode\n\nmore")).toBe(
      "First para.\n\nSecond line\n```\ncode\n\nmore",
    );
  });

  it("1,000 paragraphs in 9,000 deltas: the text read at the end is every paragraph, whatever was read between", () => {
    const preview = createPreviewAccumulator({});
    const paragraphs: string[] = [];
    for (let p = 0; p < 1_000; p += 1) {
      paragraphs.push(`Paragraph ${p} goes on.`);
      for (const word of ["Paragraph ", `${p} `, "goes ", "on.", "\n", "\n", "MED", "IA:/w/x.png", "\n"])
        preview.push(word);
      if (p % 100 === 0) expect(preview.text()).toBe(paragraphs.join("\n\n"));
    }
    expect(preview.text()).toBe(paragraphs.join("\n\n"));
  });
});
