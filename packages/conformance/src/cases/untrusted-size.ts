import { expect } from "vitest";
import { cpuMs } from "../growth.js";
import { type HostileFamilyName, hostileMarkdown } from "../hostile-markdown.js";
import type { CaseContext, CaseDefinition } from "../types.js";
import { expectDegraded, expectDelivered, type SendResult, send } from "./helpers.js";

const always = (): true => true;

/** Letters and digits in order: what no rendering may add or lose from these inputs. */
const letters = (text: string): string => text.replace(/[^\p{L}\p{N}]/gu, "");

/**
 * A generous budget for one send of these inputs (a few messages to a local emulator): the
 * client CPU it may take. A planner quadratic in the text takes many times this.
 */
const SEND_CPU_MS = 2000;

/** Send `text`; check it arrived whole, within the limit, no message empty, within the CPU budget. */
async function sendWhole(ctx: CaseContext, text: string): Promise<SendResult> {
  let pending: Promise<SendResult> | undefined;
  // The planning runs before the first await returns: the CPU taken synchronously is the
  // event loop held by this one reply.
  const held = cpuMs(() => {
    pending = send(ctx, { text });
  });
  const result = await (pending as Promise<SendResult>);
  expect(held, "CPU ms the send held the event loop before its first request").toBeLessThan(SEND_CPU_MS);
  expectDelivered(result);
  for (const message of result.observed) {
    const shown = message.text ?? message.caption ?? "";
    expect(shown.trim(), "a message with nothing to show").not.toBe("");
    expect(shown.length).toBeLessThanOrEqual(ctx.capabilities.text.maxLength);
  }
  return result;
}

/** A hostile family at about one chunk of the platform (a few messages), sent and checked. */
function sizeCase(id: string, family: HostileFamilyName): CaseDefinition {
  return {
    id,
    checks: `Hostile Markdown (${family}, about one chunk long) is planned within ${SEND_CPU_MS} ms of CPU and arrives in chunks within the limit, none empty, with every letter of the text.`,
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const { maxLength, chunkLength = maxLength } = ctx.capabilities.text;
      const text = hostileMarkdown[family](Math.min(chunkLength, 16 * 1024));
      const result = await sendWhole(ctx, text);
      expect(letters(result.observed.map((m) => m.text ?? "").join(""))).toBe(letters(text));
    },
  };
}

/** Untrusted text at its worst sizes and depths: planning stays fast, nothing is lost or sent empty. */
export const untrustedSizeCases: CaseDefinition[] = [
  sizeCase("untrusted.size.markers", "marker runs"),
  sizeCase("untrusted.size.alternating", "alternating markers"),
  sizeCase("untrusted.size.quoted-lines", "quoted lines"),
  {
    id: "untrusted.nesting",
    checks:
      "Text quoted 10,000 levels deep (past any parser's nesting limit) arrives as one message that shows it, with a degradation in the receipt for the formatting lost.",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const result = await sendWhole(ctx, `${"> ".repeat(10_000)}deep text`);
      expect(result.observed, "messages delivered").toHaveLength(1);
      expect(result.observed[0]?.text ?? "").toContain("deep text");
      expectDegraded(result.receipt, 0);
    },
  },
];
