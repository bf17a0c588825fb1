import { describe, expect, it } from "vitest";
import { hostileMarkdown } from "../../../conformance/src/hostile-markdown.js";
import type { Renderer } from "../../src/adapter/types.js";
import { replyTree } from "../../src/markdown/parse-reply-markdown.js";
import { toPlainText } from "../../src/markdown/plain-text.js";
import { planDelivery } from "../../src/plan/build-plan.js";
import { testCapabilities } from "../engine/support/recording-transport.js";

/** The words a reader sees, without markup: an empty quote is nothing, as on Telegram or Matrix. */
const render = (tree: Parameters<Renderer["render"]>[0]): string => toPlainText(tree);
const renderer: Renderer = { render, plain: render, measure: (text) => text.length };

const plan = (text: string) =>
  planDelivery({ tree: replyTree(text), media: [], audioAsVoice: false }, testCapabilities(), renderer);

const words = (text: string): string[] => text.match(/[\p{L}\p{N}]+/gu) ?? [];

describe("content nested past the parser's limit", () => {
  it("keeps its text, formatting flattened, with a degradation", () => {
    const { parts, degraded } = plan(`${"> ".repeat(10_000)}deep **text**`);
    expect(parts).toHaveLength(1);
    const part = parts[0];
    expect(part?.type === "text" && part.text.text).toBe("deep text");
    expect(degraded).toEqual([
      {
        part: 0,
        from: "formatting",
        to: "plain",
        reason: "content nested deeper than 100 quotes or list levels is kept as plain text",
      },
    ]);
  });

  it.each(["deep quotes", "deep mixed containers", "deep lists"] as const)("loses no word: %s", (family) => {
    const text = hostileMarkdown[family](64 * 1024);
    const tree = replyTree(text);
    expect(words(toPlainText(tree))).toEqual(words(text));
    expect(tree.data?.flattened).toBe("nesting");
  });

  it("reports nothing when the nesting fits", () => {
    const { parts, degraded } = plan(`${"> ".repeat(99)}fine`);
    expect(parts).toHaveLength(1);
    expect(degraded).toEqual([]);
  });

  it("sends nothing for a text that renders as nothing", () => {
    expect(plan(">").parts).toEqual([]);
    expect(plan("> \n>\n\n-").parts).toEqual([]);
  });
});
