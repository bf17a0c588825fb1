import { describe, expect, it } from "vitest";
import { createPreviewAccumulator } from "../../src/stream/preview-accumulator.js";

describe("preview accumulator", () => {
  it("shows settled paragraphs, the current lines, and the partial line unless it may become a directive", () => {
    const preview = createPreviewAccumulator({});
    expect(preview.push("First [[reply_to_current]] para.\n\nSec")).toBe("First para.\n\nSec");
    expect(preview.push("ond line\nMED")).toBe("First para.\n\nSecond line");
    expect(preview.push("IA:/w/a.png\n```\ncode\n\nmore")).toBe(
      "First para.\n\nSecond line\n```\ncode\n\nmore",
    );
  });
});
