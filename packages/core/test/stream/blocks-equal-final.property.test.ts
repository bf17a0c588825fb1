import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AgentEvent, deliverAgentRun } from "../../src/index.js";
import { createFakeAdapter, deliveredMedia, deliveredTexts, script } from "./fake-adapter.js";

const word = fc.constantFrom("alpha", "beta", "gamma", "δέλτα", "**bold**", "`code`", "end.");
const line = fc.array(word, { minLength: 1, maxLength: 12 }).map((words) => words.join(" "));
const paragraph = fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join("\n"));
const mediaLine = fc.constantFrom("a", "b", "c", "d").map((name) => `MEDIA:/w/${name}.png`);
const fence = fc
  .array(fc.oneof(line, fc.constant(""), mediaLine), { minLength: 1, maxLength: 5 })
  .map((lines) => `\`\`\`text\n${lines.join("\n")}\n\`\`\``);
/** Paragraphs, media lines (repeats allowed), fences with blank lines and MEDIA lines inside. */
const reply = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: paragraph },
      { weight: 2, arbitrary: mediaLine },
      { weight: 1, arbitrary: fence },
    ),
    {
      minLength: 1,
      maxLength: 10,
    },
  )
  .map((blocks) => blocks.join("\n\n"));

/** Cut `text` into deltas at the given fractions. */
function split(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => Math.floor(cut * text.length)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const at of [...points, text.length]) {
    if (at > from) parts.push(text.slice(from, at));
    from = Math.max(from, at);
  }
  return parts;
}

const visible = (texts: string[]): string[] => texts.join(" ").split(/\s+/).filter(Boolean);
const fenceLines = (text: string): number => text.split("\n").filter((l) => /^```/.test(l)).length;

describe("blocks mode delivers what final mode delivers", () => {
  it("for any split of a reply into deltas: same visible text and media, none twice, no fence cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        reply,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 1, max: 200 }),
        fc.boolean(),
        async (text, cuts, minChars, extra, withResult) => {
          const events: AgentEvent[] = [
            ...split(text, cuts).map((delta): AgentEvent => ({ type: "text", text: delta })),
            withResult ? { type: "done", result: { text } } : { type: "done" },
          ];
          const final = createFakeAdapter();
          await deliverAgentRun(script(events), final, { to: "c" }).receipt;
          const blocks = createFakeAdapter();
          const receipt = await deliverAgentRun(
            script(events),
            blocks,
            { to: "c" },
            {
              mode: "blocks",
              minChars,
              maxChars: minChars + extra,
              idleMs: 0,
            },
          ).receipt;
          expect(receipt.ok).toBe(true);
          expect(visible(deliveredTexts(blocks))).toEqual(visible(deliveredTexts(final)));
          expect(deliveredMedia(blocks)).toEqual(deliveredMedia(final));
          expect(new Set(deliveredMedia(blocks)).size).toBe(deliveredMedia(blocks).length);
          for (const delivered of deliveredTexts(blocks)) expect(fenceLines(delivered) % 2).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
