import { describe, expect, it } from "vitest";
import { cpuGrowth } from "../../../conformance/src/growth.js";
import { createRunText, type RunText } from "../../src/stream/run-text.js";
import { deltasOf } from "./deltas.js";

/** Push `delta`, then read the text to show. */
const step = (run: RunText, delta: string): string => {
  run.push(delta);
  return run.shown();
};

describe("the text a run's preview shows", () => {
  it("shows settled paragraphs, the current lines, and the partial line unless it may become a directive", () => {
    const preview = createRunText({});
    expect(preview.shown()).toBe("");
    expect(step(preview, "First [[reply_to_current]] para.\n\nSec")).toBe("First para.\n\nSec");
    expect(step(preview, "ond line\nMED")).toBe("First para.\n\nSecond line");
    expect(step(preview, "IA:/w/a.png\n```\ncode\n\nmore")).toBe(
      "First para.\n\nSecond line\n```\ncode\n\nmore",
    );
  });

  it("1,000 paragraphs in 9,000 deltas: the text read at the end is every paragraph, whatever was read between", () => {
    const preview = createRunText({});
    const paragraphs: string[] = [];
    for (let p = 0; p < 1_000; p += 1) {
      paragraphs.push(`Paragraph ${p} goes on.`);
      for (const word of ["Paragraph ", `${p} `, "goes ", "on.", "\n", "\n", "MED", "IA:/w/x.png", "\n"])
        preview.push(word);
      if (p % 100 === 0) expect(preview.shown()).toBe(paragraphs.join("\n\n"));
    }
    expect(preview.shown()).toBe(paragraphs.join("\n\n"));
  });

  it("a long line streamed in 6-character deltas, shown after each: the text stops past four limits, at linear cost", () => {
    const stream = (size: number): string => {
      const run = createRunText({}, { limit: 4096 });
      const line = "word ".repeat(size / 5);
      let shown = "";
      for (const delta of deltasOf(line, 6)) {
        run.push(delta);
        shown = run.shown();
      }
      return shown;
    };
    const shown = stream(200_000);
    expect(shown.length).toBeGreaterThanOrEqual(4 * 4096);
    expect(shown.length).toBeLessThan(4 * 4096 + 10);
    expect(shown.endsWith("\n\n…")).toBe(true);
    const growth = cpuGrowth(stream, 32 * 1024, 8, 3);
    expect(growth.exponent, JSON.stringify(growth)).toBeLessThan(1.4);
  });

  it("a line that may still become a directive is not shown, and the raw text it starts is not covered", () => {
    const run = createRunText({}, { limit: 4096 });
    run.push("Shown.\n  ME");
    expect(run.shown()).toBe("Shown.");
    expect(run.covered()).toBe("Shown.\n".length);
    run.push("DIA:/w/a.png");
    expect(run.shown()).toBe("Shown.");
    run.push("\nNot a [");
    expect(run.shown()).toBe("Shown.\nNot a [");
    expect(run.covered()).toBe(run.length);
    run.push("[reply_to:1");
    expect(run.shown()).toBe("Shown.");
    run.push("]] after\nMEDIUM");
    expect(run.shown()).toBe("Shown.\nNot a after\nMEDIUM");
    expect(run.tags()).toEqual({ replyToId: "1", audioAsVoice: false });
  });

  it("a long fence in 6-character deltas, shown after each (as a preview's edits read it): linear work", () => {
    const stream = (size: number): RunText => {
      const run = createRunText({}, { limit: 4096 });
      const fence = `\`\`\`\n${"[[reply_to:9]] in code\n".repeat(size / 23)}`;
      for (const delta of deltasOf(fence, 6)) {
        run.push(delta);
        run.shown();
      }
      return run;
    };
    const run = stream(230_000);
    const fenced = run.length;
    run.push("```\n\n[[audio_as_voice]]");
    expect(run.shown().endsWith("\n\n…")).toBe(true);
    // Tags in the fence never count; the one after it does.
    expect(run.tags()).toEqual({ audioAsVoice: true });
    expect(run.complete).toBe(fenced + 5);
    const growth = cpuGrowth(stream, 32 * 1024, 8, 3);
    expect(growth.exponent, JSON.stringify(growth)).toBeLessThan(1.4);
  });
});
