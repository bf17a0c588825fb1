/**
 * What tracing costs per message: client CPU per `send` of a short text through the Telegram
 * adapter (grammY) to its emulator in another process, and through the engine alone (an
 * in-memory transport), without a subscriber and with `instrumentOutbox()` recording every
 * span (AlwaysOn sampler, a batch processor to an exporter that drops them) and every metric.
 * The two states alternate batch by batch in interleaved rounds (the order rotating), after a
 * warm-up of both and a few untimed sends after each change of state, so a machine getting
 * busier or quieter weighs on both alike; each round gives one on/off ratio and the figure is
 * their median. A traced batch ends with the batch
 * processor flushed inside its timing, so no span's processing is left to run during a batch
 * without tracing. Goal: ≤ 1.10× per Telegram message. Without a subscriber (the API absent)
 * each traced operation costs one guard: measured alone against the same call unguarded, its
 * share of an engine-only message is gated at ≤ 2%.
 */

import { AsyncLocalStorage } from "node:async_hooks";
import { tracingChannel } from "node:diagnostics_channel";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { AlwaysOnSampler, BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { traced } from "@outbox/core/internal";
import { instrumentOutbox } from "@outbox/otel";
import { createTelegramAdapter } from "@outbox/telegram";
import { skippingClock } from "../support/adapter-bench.js";
import { startEmulatorProcess } from "../support/emulator-child.js";
import { measure, processClock } from "../support/measure.js";
import { memoryAdapter } from "../support/memory-adapter.js";
import type { Metric, Suite } from "../support/metrics.js";
import { ratioStats, round, stats } from "../support/stats.js";

/** Traced operations per short text message: the send, its part, its call, its wait check. */
const GUARDS_PER_MESSAGE = 4;
/**
 * Untimed sends per target after each change of state. An application subscribes once; the
 * suite subscribes and leaves between batches, so a fresh subscriber's first hash and
 * attribute sets, and call sites that saw the other state, are paid here, not in the timing.
 */
const SETTLE_SENDS = 10;
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
    const rounds = quick ? 3 : 15;
    const perRound = quick ? 20 : 100;
    // The tracing state of a batch: entered before its timing, left after it (a subscription is
    // made or dropped between batches, never inside one).
    const processor = new BatchSpanProcessor({
      export: (_spans, done) => done({ code: 0 }),
      shutdown: async () => {},
    });
    const tracerProvider = new NodeTracerProvider({
      sampler: new AlwaysOnSampler(),
      spanProcessors: [processor],
    });
    const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
    // Node 20's AsyncLocalStorage, once it has held a value, tags every promise of the process
    // until disabled, as the SDK's context manager does in an application that registered it
    // (the subscriber holds none over a send: each message names its parent's). So the states
    // are measured in two blocks: no store at all against a store enabled (the hooks' own
    // cost, before anything traced), then, with a store enabled throughout, tracing off
    // against on.
    const hooks = new AsyncLocalStorage<true>();
    const states = {
      none: { enter: () => () => {}, settle: async () => {} },
      hooked: {
        enter: () => {
          hooks.enterWith(true);
          return () => hooks.disable();
        },
        settle: async () => {},
      },
      off: { enter: () => () => {}, settle: async () => {} },
      on: {
        enter: () => {
          const telemetry = instrumentOutbox({ tracerProvider, meterProvider });
          return () => telemetry.stop();
        },
        settle: () => processor.forceFlush(),
      },
    };
    const targets = {
      telegram: () => telegram.send({ text }, { to: "42" }),
      engine: () => engine.send({ text }, { to: "bench" }),
    };
    type State = keyof typeof states;
    type Target = keyof typeof targets;
    const cpuUs = new Map<string, number[]>();
    const samples = (target: Target, state: State): number[] => {
      const key = `${target}.${state}`;
      if (!cpuUs.has(key)) cpuUs.set(key, []);
      return cpuUs.get(key) as number[];
    };
    const batch = async (state: State, target: Target): Promise<number> => {
      const times = slowdown?.[`${target}.${state}`] ?? 1;
      const started = processClock.cpuMs();
      for (let i = 0; i < perRound; i += 1) for (let k = 0; k < times; k += 1) await targets[target]();
      await states[state].settle();
      return ((processClock.cpuMs() - started) * 1000) / perRound;
    };
    const interleaved = async (pair: [State, State], count: number, record: boolean) => {
      for (let round = 0; round < count; round += 1) {
        const order = round % 2 === 0 ? pair : ([pair[1], pair[0]] as const);
        const within: Target[] = (round >> 1) % 2 === 0 ? ["telegram", "engine"] : ["engine", "telegram"];
        for (const state of order) {
          const leave = states[state].enter();
          try {
            for (const target of within) for (let i = 0; i < SETTLE_SENDS; i += 1) await targets[target]();
            await states[state].settle();
            for (const target of within) {
              const us = await batch(state, target);
              if (record) samples(target, state).push(us);
            }
          } finally {
            leave();
          }
        }
      }
    };
    try {
      await interleaved(["none", "hooked"], quick ? 1 : 4, false);
      await interleaved(["none", "hooked"], rounds, true);
      hooks.enterWith(true);
      await interleaved(["off", "on"], quick ? 1 : 4, false);
      await interleaved(["off", "on"], rounds, true);
    } finally {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
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
      {
        rounds,
        perRound,
        warmup: { minBatches: quick ? 1 : 5, maxBatches: quick ? 2 : 30 },
        ...(slowdown ? { slowdown } : {}),
      },
    );

    const figures = (target: Target) => {
      const ratio = (a: State, b: State) => ratioStats(samples(target, a), samples(target, b));
      const hooked = ratio("hooked", "none");
      const traced = ratio("on", "off");
      return {
        offUs: stats(samples(target, "none")).median,
        onUs: stats(samples(target, "on")).median,
        spread: stats(samples(target, "on")).spread,
        hooked,
        traced,
        // Tracing on, its store's hooks included, over a process with no store at all.
        whole: hooked.median * traced.median,
      };
    };
    const viaTelegram = figures("telegram");
    const engineOnly = figures("engine");
    const us = (values: readonly number[]) => stats(values.map((ms) => ms * 1000));
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
        value: round(viaTelegram.whole, 2),
        unit: "×",
        goal: { op: "<=", target: 1.1 },
        note: "tracing on over off per Telegram message, over a process with no async store (hooks × traced below)",
      },
      {
        id: "otel.hooksOverNone",
        value: round(viaTelegram.hooked.median, 3),
        unit: "×",
        spread: round(viaTelegram.hooked.spread),
        note: "an enabled AsyncLocalStorage over none per Telegram message (paid once per process: the SDK's context manager pays it too)",
      },
      {
        id: "otel.tracedOverHooked",
        value: round(viaTelegram.traced.median, 2),
        unit: "×",
        spread: round(viaTelegram.traced.spread),
        note: "tracing on over off per Telegram message with a store enabled in both (an application that registered the SDK's context manager)",
      },
      {
        id: "otel.engineOnOverOff",
        value: round(engineOnly.whole, 2),
        unit: "×",
        note: `the same on the engine alone (${round(engineOnly.offUs, 1)} → ${round(engineOnly.onUs, 1)} µs; hooks ${round(engineOnly.hooked.median, 3)}× × traced ${round(engineOnly.traced.median, 2)}×): the spans' own cost, no network`,
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
