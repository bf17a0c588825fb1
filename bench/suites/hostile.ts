/**
 * Hostile Markdown (@outbox/conformance's families: marker runs, deep containers, storms…)
 * through each adapter's planner: the reply parsed to its tree (`replyTree`, once per size,
 * timed on its own), then `planDelivery` with the adapter's renderer and capabilities. Per
 * family and adapter: the CPU growth exponent from the input to 4× it (gated; 1 is linear,
 * 2 quadratic) and the CPU time at the larger size (goal: 1 MB planned in under a second, so
 * one reply never holds the event loop for long). CPU, not wall time: the machine is shared.
 */
import { cpuMs, type HostileFamilyName, hostileMarkdown } from "@outbox/conformance";
import type { Capabilities, Renderer } from "@outbox/core";
import { discordCapabilities, discordRenderer } from "@outbox/discord";
import { matrixCapabilities, matrixRenderer } from "@outbox/matrix";
import { slackCapabilities, slackRenderer } from "@outbox/slack";
import { telegramCapabilities, telegramRenderer } from "@outbox/telegram";
import { webCapabilities, webRenderer } from "@outbox/web";
import { whatsappCapabilities, whatsappRenderer } from "@outbox/whatsapp";
import { replyTree } from "../../packages/core/src/markdown/parse-reply-markdown.js";
import { planDelivery } from "../../packages/core/src/plan/build-plan.js";
import type { Metric } from "../support/metrics.js";
import { round } from "../support/stats.js";

/** A reply's tree (the bench has no mdast types of its own). */
type Root = ReturnType<typeof replyTree>;

const KB = 1024;

const adapters: Record<string, { renderer: Renderer; capabilities: Capabilities }> = {
  telegram: { renderer: telegramRenderer, capabilities: telegramCapabilities },
  slack: { renderer: slackRenderer, capabilities: slackCapabilities },
  discord: { renderer: discordRenderer, capabilities: discordCapabilities },
  whatsapp: { renderer: whatsappRenderer, capabilities: whatsappCapabilities },
  matrix: { renderer: matrixRenderer, capabilities: matrixCapabilities },
  web: { renderer: webRenderer, capabilities: webCapabilities },
};

const slug = (name: string) => name.replace(/[^a-z0-9]+/gi, "-");

/** Least CPU milliseconds of `rounds` runs. */
function leastMs(run: () => void, rounds: number): number {
  let least = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r += 1) least = Math.min(least, cpuMs(run));
  return least;
}

function exponent(smallMs: number, largeMs: number): number {
  return round(Math.log(largeMs / Math.max(smallMs, 0.01)) / Math.log(4), 2);
}

/** The hostile figures: `parse.hostile.<family>.parse.growth` and `.<adapter>.growth|cpuMs`. */
export function hostileMetrics(quick: boolean): Metric[] {
  const small = quick ? 8 * KB : 256 * KB;
  const large = small * 4;
  // One run at the larger size (11 families × 6 adapters at 1 MB take most of the suite's
  // minute; CPU time moves little under load), the least of two at the smaller one, whose
  // first run would also pay for compiling the code.
  const rounds = [2, 1] as const;
  const metrics: Metric[] = [];
  for (const family of Object.keys(hostileMarkdown) as HostileFamilyName[]) {
    const texts = [hostileMarkdown[family](small), hostileMarkdown[family](large)] as const;
    const trees: Root[] = [];
    const parseMs = texts.map((text, index) =>
      leastMs(() => {
        trees[index] = replyTree(text);
      }, rounds[index] as number),
    );
    const id = `parse.hostile.${slug(family)}`;
    metrics.push({
      id: `${id}.parse.growth`,
      value: exponent(parseMs[0] as number, parseMs[1] as number),
      unit: "exponent",
      goal: { op: "<=", target: 1.25 },
      gate: true,
      note: `${family}: replyTree CPU ${round(parseMs[0] as number)} → ${round(parseMs[1] as number)} ms, ${small / KB} → ${large / KB} KB`,
    });
    for (const [name, { renderer, capabilities }] of Object.entries(adapters)) {
      const planMs = trees.map((tree, index) =>
        leastMs(
          () => planDelivery({ tree, media: [], audioAsVoice: false }, capabilities, renderer),
          rounds[index] as number,
        ),
      );
      metrics.push(
        {
          id: `${id}.${name}.growth`,
          value: exponent(planMs[0] as number, planMs[1] as number),
          unit: "exponent",
          goal: { op: "<=", target: 1.25 },
          gate: true,
          note: `${family} on ${name}: planDelivery CPU growth ${small / KB} → ${large / KB} KB`,
        },
        {
          id: `${id}.${name}.cpuMs`,
          value: round(planMs[1] as number),
          unit: "ms",
          ...(quick ? {} : { goal: { op: "<=" as const, target: 1000 } }),
          note: `${family} on ${name}: planDelivery CPU at ${large / KB} KB`,
        },
      );
    }
  }
  return metrics;
}
