/**
 * Hostile Markdown (@outbox/conformance's families: marker runs, deep containers, storms…)
 * through each adapter's planner: the reply parsed to its tree (`replyTree`, timed on its
 * own), then `planDelivery` with the adapter's renderer and capabilities. Per family and
 * adapter: the CPU growth exponent from the input to 4× it (gated; 1 is linear, 2 quadratic)
 * and the CPU time at the larger size (goal: 1 MB parsed, and planned, in under a second
 * each, so one reply never holds the event loop for long). CPU, not wall time: the machine
 * is shared.
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

/** CPU of `run(0)` (the input) and `run(1)` (4× it), and the growth exponent between them. */
interface Growth {
  smallMs: number;
  largeMs: number;
  exponent: number;
}

/**
 * {@link Growth} as `cpuGrowth` of @outbox/conformance weighs it, in one round (each pair
 * runs at 1 MB; eleven families on six adapters fill the suite's minute): an untimed run
 * of the input compiles the code, then four runs of it timed as one batch against one run of
 * 4× it, so a collection or a scheduler tick weighs on both sides alike (the least of two
 * single small runs against one large made exponents of 1.3-1.8 out of a few milliseconds).
 */
function growth(run: (index: 0 | 1) => void): Growth {
  run(0);
  const smallMs =
    cpuMs(() => {
      for (let time = 0; time < 4; time += 1) run(0);
    }) / 4;
  const largeMs = cpuMs(() => run(1));
  return {
    smallMs,
    largeMs,
    exponent: round(Math.log(largeMs / Math.max(smallMs, 0.01)) / Math.log(4), 2),
  };
}

/** The hostile figures: `parse.hostile.<family>.parse.growth|cpuMs` and `.<adapter>.growth|cpuMs`. */
export function hostileMetrics(quick: boolean): Metric[] {
  const small = quick ? 8 * KB : 256 * KB;
  const large = small * 4;
  const metrics: Metric[] = [];
  for (const family of Object.keys(hostileMarkdown) as HostileFamilyName[]) {
    const texts = [hostileMarkdown[family](small), hostileMarkdown[family](large)] as const;
    const trees: Root[] = [];
    const parse = growth((index) => {
      trees[index] = replyTree(texts[index]);
    });
    const id = `parse.hostile.${slug(family)}`;
    metrics.push(
      {
        id: `${id}.parse.growth`,
        value: parse.exponent,
        unit: "exponent",
        goal: { op: "<=", target: 1.25 },
        gate: true,
        note: `${family}: replyTree CPU growth ${small / KB} → ${large / KB} KB`,
      },
      {
        id: `${id}.parse.cpuMs`,
        value: round(parse.largeMs),
        unit: "ms",
        ...(quick ? {} : { goal: { op: "<=" as const, target: 1000 } }),
        note: `${family}: replyTree CPU at ${large / KB} KB`,
      },
    );
    for (const [name, { renderer, capabilities }] of Object.entries(adapters)) {
      const plan = growth((index) =>
        planDelivery({ tree: trees[index] as Root, media: [], audioAsVoice: false }, capabilities, renderer),
      );
      metrics.push(
        {
          id: `${id}.${name}.growth`,
          value: plan.exponent,
          unit: "exponent",
          goal: { op: "<=", target: 1.25 },
          gate: true,
          note: `${family} on ${name}: planDelivery CPU growth ${small / KB} → ${large / KB} KB`,
        },
        {
          id: `${id}.${name}.cpuMs`,
          value: round(plan.largeMs),
          unit: "ms",
          ...(quick ? {} : { goal: { op: "<=" as const, target: 1000 } }),
          note: `${family} on ${name}: planDelivery CPU at ${large / KB} KB`,
        },
      );
    }
  }
  return metrics;
}
