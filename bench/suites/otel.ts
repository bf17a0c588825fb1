/**
 * What tracing costs per message: client CPU per `send` of a short text through the Telegram
 * adapter (grammY) to its emulator in another process, and through the engine alone (an
 * in-memory transport), without a subscriber, then with `instrumentOutbox()` recording every
 * span (AlwaysOn sampler, a batch processor to an exporter that drops them) and every metric,
 * then without again (the two runs without are averaged, so a machine getting busier during
 * the suite does not pass as tracing's cost). Goal: ≤ 1.10× per Telegram message. Without a
 * subscriber (the API absent) each traced operation costs one guard: measured alone against
 * the same call unguarded, its share of an engine-only message is gated at ≤ 2%.
 */

import { tracingChannel } from "node:diagnostics_channel";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { AlwaysOnSampler, BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { traced } from "@outbox/core/internal";
import { instrumentOutbox } from "@outbox/otel";
import { createTelegramAdapter } from "@outbox/telegram";
import { skippingClock } from "../support/adapter-bench.js";
import { startEmulatorProcess } from "../support/emulator-child.js";
import { measure } from "../support/measure.js";
import { memoryAdapter } from "../support/memory-adapter.js";
import type { Metric, Suite } from "../support/metrics.js";
import { round, stats } from "../support/stats.js";

/** Traced operations per short text message: the send, its part, its call, its wait check. */
const GUARDS_PER_MESSAGE = 4;
/** Guarded calls per measured operation (one is below the CPU clock's resolution). */
const GUARD_LOOP = 1_000;

/** A reader that never exports: the SDK aggregates as it would, nothing leaves. */
class IdleReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** The otel suite. */
export const otelSuite: Suite = {
  name: "otel",
  async run({ quick, slowdown }) {
    const emulator = await startEmulatorProcess(false);
    const telegram = createTelegramAdapter({
      token: emulator.token,
      apiRoot: emulator.apiRoot,
      clock: skippingClock(),
    });
    const engine = memoryAdapter({});
    const text = "Hello **world**, a short reply.";
    const options = {
      rounds: quick ? 3 : 9,
      perRound: quick ? 20 : 100,
      warmup: { minBatches: quick ? 1 : 5, maxBatches: quick ? 2 : 30 },
      ...(slowdown ? { slowdown } : {}),
    };
    const cpu = async () => {
      const { cpuMs } = await measure(
        [
          { name: "telegram", run: () => telegram.send({ text }, { to: "42" }) },
          { name: "engine", run: () => engine.send({ text }, { to: "bench" }) },
        ],
        options,
      );
      return { telegram: cpuMs.telegram ?? [], engine: cpuMs.engine ?? [] };
    };

    let off: Awaited<ReturnType<typeof cpu>>;
    let on: typeof off;
    let offAgain: typeof off;
    try {
      off = await cpu();
      const tracerProvider = new NodeTracerProvider({
        sampler: new AlwaysOnSampler(),
        spanProcessors: [
          new BatchSpanProcessor({ export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} }),
        ],
      });
      const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
      const telemetry = instrumentOutbox({ tracerProvider, meterProvider });
      on = await cpu();
      telemetry.stop();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      offAgain = await cpu();
    } finally {
      emulator.close();
    }

    // The guard alone: a traced call without a subscriber against the same call made directly.
    const channel = tracingChannel<unknown, object>("outbox:bench-unwatched");
    const done = Promise.resolve();
    const work = () => done;
    const guards = await measure(
      [
        {
          name: "guarded",
          run: () => {
            for (let i = 0; i < GUARD_LOOP; i += 1) void traced(channel, () => ({}), work);
          },
        },
        {
          name: "direct",
          run: () => {
            for (let i = 0; i < GUARD_LOOP; i += 1) void work();
          },
        },
      ],
      { ...options, perRound: quick ? 20 : 100 },
    );

    const us = (samples: readonly number[]) => stats(samples.map((ms) => ms * 1000));
    const figures = (name: "telegram" | "engine") => {
      const offUs = (us(off[name]).median + us(offAgain[name]).median) / 2;
      return { offUs, onUs: us(on[name]).median, spread: us(on[name]).spread };
    };
    const viaTelegram = figures("telegram");
    const engineOnly = figures("engine");
    const guardNs =
      ((us(guards.cpuMs.guarded ?? []).median - us(guards.cpuMs.direct ?? []).median) * 1000) / GUARD_LOOP;
    const absentNs = Math.max(0, guardNs) * GUARDS_PER_MESSAGE;
    const metrics: Metric[] = [
      {
        id: "otel.offUs",
        value: round(viaTelegram.offUs, 1),
        unit: "µs",
        note: "client CPU per short text to Telegram's emulator, no subscriber",
      },
      {
        id: "otel.onUs",
        value: round(viaTelegram.onUs, 1),
        unit: "µs",
        spread: round(viaTelegram.spread),
        note: "the same, every span and metric recorded (AlwaysOn)",
      },
      {
        id: "otel.onOverOff",
        value: round(viaTelegram.onUs / viaTelegram.offUs, 2),
        unit: "×",
        goal: { op: "<=", target: 1.1 },
        note: "tracing on over off per Telegram message (the two runs without averaged)",
      },
      {
        id: "otel.engineOnOverOff",
        value: round(engineOnly.onUs / engineOnly.offUs, 2),
        unit: "×",
        note: `the same on the engine alone (${round(engineOnly.offUs, 1)} → ${round(engineOnly.onUs, 1)} µs): the spans' own cost, no network`,
      },
      {
        id: "otel.absentNs",
        value: round(absentNs, 1),
        unit: "ns",
        note: `guards per message without a subscriber (${GUARDS_PER_MESSAGE} × a traced call's guard)`,
      },
      {
        id: "otel.absentShare",
        value: round(absentNs / (engineOnly.offUs * 1000), 4),
        unit: "×",
        max: 0.02,
        note: "the guards' share of an engine-only message's CPU without a subscriber (absolute gate: 2%)",
      },
    ];
    return metrics;
  },
};
