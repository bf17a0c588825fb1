/**
 * An adapter's renderer teeth as vitest tests: the suite judges what the platform's emulator
 * decoded, not what the adapter claims. The adapter rebuilt with a renderer that sends plain
 * text fails the cases meant to catch it, on the decoded spans; rebuilt with each of
 * {@link brokenRenderers}, it fails the line-structure case meant to catch that bug.
 */
import type { Renderer } from "@outbox/core";
import { expect, it } from "vitest";
import { brokenRenderers } from "./broken-renderers.js";
import { conformanceCases } from "./cases/registry.js";
import { runCase } from "./describe-conformance.js";
import type { ConformanceHarness } from "./types.js";

/** The cases a plain-text renderer must fail. */
export type PlainTextCaseId = "text.formatting" | "text.code.split" | "caption.fits";

/** Options of {@link itRendererTeeth}. */
export interface RendererTeethOptions {
  /** A harness whose adapter is the platform's parts with `renderer`, still declaring the platform's capabilities. */
  harnessWith(renderer: Renderer): ConformanceHarness;
  /** The platform's renderer. */
  renderer: Renderer;
  /** Plain text as the platform's markup must carry it (HTML-escaped where it parses HTML). Default: as is. */
  escapePlain?: (text: string) => string;
  /** How each plain-text case must fail. Default: on its spans, its visible text or its lines. */
  plainReasons?: Partial<Record<PlainTextCaseId, RegExp>>;
}

const PLAIN_CASES: readonly PlainTextCaseId[] = ["text.formatting", "text.code.split", "caption.fits"];

/** Register the renderer teeth as `it` blocks (call inside the adapter's `describe`). */
export function itRendererTeeth(options: RendererTeethOptions): void {
  const { harnessWith, renderer, escapePlain = (text) => text } = options;
  it.each(PLAIN_CASES)("an adapter that sends plain text only fails %s on the decoded spans", async (id) => {
    // Without renderMeasured (the planner prefers it, and it would still render markup).
    const { renderMeasured: _measured, blockSeparator: _separator, ...parts } = renderer;
    const plain = harnessWith({ ...parts, render: (tree) => escapePlain(renderer.plain(tree)) });
    await expect(runCase(caseOf(id), plain, { strict: true })).rejects.toThrow(
      options.plainReasons?.[id] ?? /spans|visible text|line structure/,
    );
  });

  it.each(brokenRenderers.map((b) => [b.bug, b] as const))(
    "a renderer that %s fails its line-structure case",
    async (_bug, { wrap, caughtBy }) => {
      await expect(
        runCase(caseOf(caughtBy.id), harnessWith(wrap(renderer)), { strict: true }),
      ).rejects.toThrow(caughtBy.reason);
    },
  );
}

function caseOf(id: string) {
  const found = conformanceCases.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no conformance case ${id}`);
  return found;
}
