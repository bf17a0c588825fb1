/**
 * Spans and metrics of real sends: the Telegram adapter (grammY) against its emulator, the SDK
 * with in-memory exporters. A send's trace is send → parts → calls, a 429's Retry-After is an
 * event on its part, and the metrics count parts by platform and outcome; a queued reply is
 * one trace from the producer's span to the platform call, in process and through Redis.
 */
import { tracingChannel } from "node:diagnostics_channel";
import { trace } from "@opentelemetry/api";
import { type AgentEvent, createManualClock, deliverAgentRun, OUTBOX_CHANNELS } from "@outbox/core";
import { createOutbox } from "@outbox/queue";
import { createTelegramAdapter } from "@outbox/telegram";
import { startTelegramEmulator, type TelegramEmulator } from "@outbox/telegram/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { redisMissing, startRedis } from "../../queue/test/support/redis-server.js";
import { observeQueue } from "../src/index.js";
import { type MemoryTelemetry, points, startMemoryTelemetry } from "./support/memory-telemetry.js";

let emulator: TelegramEmulator;
let otel: MemoryTelemetry;

beforeEach(async () => {
  emulator = await startTelegramEmulator({ chats: [{ id: 7 }, { id: 8 }] });
  otel = startMemoryTelemetry();
});
afterEach(async () => {
  await otel.close();
  await emulator.close();
});

const byName = (name: string) => otel.spans().filter((span) => span.name === name);
const parentId = (span: { parentSpanContext?: { spanId: string } }) => span.parentSpanContext?.spanId;

describe("a send", () => {
  it("is a send span over one span per part over one span per call attempt; a 429 waits as an event", async () => {
    const clock = createManualClock();
    const adapter = createTelegramAdapter({ token: emulator.token, apiRoot: emulator.apiRoot, clock });
    emulator.inject({ kind: "rate-limit", retryAfterMs: 1500, method: "sendMessage", skip: 1 });
    const text = `first ${"a".repeat(3000)}\n\nsecond ${"b".repeat(3000)}`;
    const receipt = await clock.run(adapter.send({ text }, { to: "7" }));
    expect(receipt.ok).toBe(true);

    const [send] = byName("outbox.send");
    expect(send?.attributes).toMatchObject({
      "outbox.platform": "telegram",
      "outbox.parts.delivered": 2,
      "outbox.parts.failed": 0,
      "outbox.parts.ambiguous": 0,
    });
    expect(send?.attributes["outbox.target.hash"]).toMatch(/^[0-9a-f]{16}$/);
    const parts = byName("outbox.part");
    expect(
      parts.map((part) => [part.attributes["outbox.part.index"], part.attributes["outbox.outcome"]]),
    ).toEqual([
      [0, "delivered"],
      [1, "delivered"],
    ]);
    for (const part of parts) expect(parentId(part)).toBe(send?.spanContext().spanId);
    const calls = byName("outbox.call");
    // Part 0 once; part 1 answered 429, then sent on its second attempt.
    expect(
      calls.map((call) => [
        call.attributes["outbox.part.index"],
        call.attributes["outbox.attempt"],
        call.attributes["outbox.outcome"],
        call.attributes["http.response.status_code"],
      ]),
    ).toEqual([
      [0, 0, "delivered", undefined],
      [1, 0, "failed", 429],
      [1, 1, "delivered", undefined],
    ]);
    expect(calls.map((call) => parentId(call))).toEqual([
      parts[0]?.spanContext().spanId,
      parts[1]?.spanContext().spanId,
      parts[1]?.spanContext().spanId,
    ]);
    expect(new Set(otel.spans().map((span) => span.spanContext().traceId)).size).toBe(1);
    const retry = parts[1]?.events.find((event) => event.name === "outbox.retry_after");
    expect(retry?.attributes).toEqual({ "outbox.wait.ms": 1500, "outbox.attempt": 1 });

    const collected = await otel.collect();
    expect(points(collected, "outbox.parts")).toEqual([
      { attributes: { "outbox.platform": "telegram", "outbox.outcome": "delivered" }, value: 2 },
    ]);
    expect(points(collected, "outbox.rate_limited")).toEqual([
      { attributes: { "outbox.platform": "telegram" }, value: 1 },
    ]);
    expect(points(collected, "outbox.retry_after.wait")).toEqual([
      { attributes: { "outbox.platform": "telegram" }, value: 1, sum: 1.5 },
    ]);
    expect(points(collected, "outbox.part.duration")[0]?.value).toBe(2);
  });

  it("that fails ambiguously says so on its part, its call and its send, and counts it", async () => {
    const adapter = createTelegramAdapter({ token: emulator.token, apiRoot: emulator.apiRoot });
    emulator.inject({ kind: "server-error", status: 503, method: "sendMessage" });
    const receipt = await adapter.send({ text: "hello" }, { to: "7" });
    expect(receipt.failures.map((failure) => failure.ambiguous)).toEqual([true]);
    expect(byName("outbox.call").map((call) => call.attributes["outbox.outcome"])).toEqual(["ambiguous"]);
    const [part] = byName("outbox.part");
    expect(part?.attributes).toMatchObject({ "outbox.outcome": "ambiguous", "error.type": "platform_error" });
    expect(byName("outbox.send")[0]?.attributes).toMatchObject({ "outbox.parts.ambiguous": 1 });
    expect(points(await otel.collect(), "outbox.parts")).toEqual([
      { attributes: { "outbox.platform": "telegram", "outbox.outcome": "ambiguous" }, value: 1 },
    ]);
  });

  it("links a part to its send and a call to its part by the message each names, not by async context", async () => {
    const send = { platform: "telegram", to: "7" };
    let finish = () => {};
    const sending = tracingChannel(OUTBOX_CHANNELS.send).tracePromise(
      () => new Promise<void>((resolve) => (finish = resolve)),
      send,
    );
    // Published from outside the send's async context, as an engine that hands the messages on.
    const part = { part: 0, type: "text", parent: send };
    let done = () => {};
    const parting = tracingChannel(OUTBOX_CHANNELS.part).tracePromise(
      () => new Promise((resolve) => (done = () => resolve({ messages: [], degraded: [] }))),
      part,
    );
    const call = { to: "7", part: 0, attempt: 0, parent: part };
    await tracingChannel(OUTBOX_CHANNELS.call).tracePromise(() => Promise.resolve({ id: "1" }), call);
    done();
    await parting;
    finish();
    await sending;

    const [sendSpan] = byName("outbox.send");
    const [partSpan] = byName("outbox.part");
    expect(parentId(partSpan as never)).toBe(sendSpan?.spanContext().spanId);
    expect(parentId(byName("outbox.call")[0] as never)).toBe(partSpan?.spanContext().spanId);
    expect(partSpan?.attributes["outbox.platform"]).toBe("telegram");
  });

  it("stops recording when stopped: no channel has a subscriber left", async () => {
    otel.telemetry.stop();
    for (const name of Object.values(OUTBOX_CHANNELS)) {
      const traced = tracingChannel(name);
      expect(traced.start.hasSubscribers, name).toBe(false);
      expect(traced.asyncEnd.hasSubscribers, name).toBe(false);
    }
    const adapter = createTelegramAdapter({ token: emulator.token, apiRoot: emulator.apiRoot });
    await adapter.send({ text: "hello" }, { to: "7" });
    expect(otel.spans()).toEqual([]);
  });

  it("stopped during a send, still ends that send's spans, opens no new one, then leaves", async () => {
    const sendChannel = tracingChannel(OUTBOX_CHANNELS.send);
    const send = { platform: "telegram", to: "7" };
    let finish = () => {};
    const sending = sendChannel.tracePromise(() => new Promise<void>((resolve) => (finish = resolve)), send);
    otel.telemetry.stop();
    // Started after the stop: no span.
    await sendChannel.tracePromise(() => Promise.resolve(), { platform: "telegram", to: "8" });
    expect(sendChannel.asyncEnd.hasSubscribers).toBe(true);
    finish();
    await sending;
    expect(byName("outbox.send").map((span) => span.attributes["outbox.target.hash"])).toHaveLength(1);
    for (const name of Object.values(OUTBOX_CHANNELS)) {
      expect(tracingChannel(name).asyncEnd.hasSubscribers, name).toBe(false);
    }
  });
});

describe("an agent run", () => {
  it("is the parent of the sends it makes, and each send of its parts", async () => {
    const adapter = createTelegramAdapter({ token: emulator.token, apiRoot: emulator.apiRoot });
    async function* events(): AsyncIterable<AgentEvent> {
      yield { type: "text", text: "First block.\n\n" };
      yield { type: "text", text: "Second block." };
      yield { type: "done" };
    }
    const receipt = await deliverAgentRun(events(), adapter, { to: "7" }, { mode: "blocks", idleMs: 0 })
      .receipt;
    expect(receipt.ok).toBe(true);

    const [run] = byName("outbox.agent_run");
    const sends = byName("outbox.send");
    expect(sends.length).toBeGreaterThan(0);
    for (const send of sends) expect(parentId(send)).toBe(run?.spanContext().spanId);
    const sendIds = sends.map((send) => send.spanContext().spanId);
    for (const part of byName("outbox.part")) expect(sendIds).toContain(parentId(part));
  });
});

describe("a queued reply", () => {
  const factories = () => ({
    telegram: (services: Parameters<Parameters<typeof createOutbox>[0]["adapters"][string]>[0]) =>
      createTelegramAdapter({ token: emulator.token, apiRoot: emulator.apiRoot, ...services }),
  });

  /** Enqueue under a span of the producer's and return that span's trace and id. */
  const enqueueUnder = async (outbox: Awaited<ReturnType<typeof createOutbox>>) => {
    const tracer = trace.getTracer("producer");
    return tracer.startActiveSpan("agent turn", async (span) => {
      const { id } = await outbox.enqueue("telegram", { text: "queued hello" }, { to: "8" });
      span.end();
      return { id, traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
    });
  };

  /** The queue's spans: the producer's, the job's under it, the send under the job, in one trace. */
  const expectOneTrace = (traceId: string, producerSpanId: string) => {
    const [enqueue] = byName("send outbox");
    const [job] = byName("process outbox");
    const [send] = byName("outbox.send");
    expect(parentId(enqueue as never)).toBe(producerSpanId);
    expect(parentId(job as never)).toBe(enqueue?.spanContext().spanId);
    expect(parentId(send as never)).toBe(job?.spanContext().spanId);
    for (const span of [enqueue, job, send, ...byName("outbox.part"), ...byName("outbox.call")])
      expect(span?.spanContext().traceId).toBe(traceId);
    expect(job?.attributes).toMatchObject({
      "messaging.system": "outbox",
      "messaging.operation.type": "process",
      "outbox.job.status": "delivered",
    });
  };

  it("the gauges read the queue: jobs waiting, the oldest's age, receipts awaited", async () => {
    const outbox = await createOutbox({ adapters: factories() });
    const stopGauges = observeQueue(outbox, { meterProvider: otel.meterProvider });
    const gauge = async () => {
      const collected = await otel.collect();
      const jobs = points(collected, "outbox.queue.jobs");
      return {
        waiting: jobs.find((p) => p.attributes["outbox.queue.state"] === "waiting")?.value,
        oldest: points(collected, "outbox.queue.oldest_waiting")[0]?.value,
        pending: points(collected, "outbox.receipts.pending")[0]?.value,
      };
    };
    try {
      const { id } = await outbox.enqueue("telegram", { text: "one" }, { to: "8" });
      await outbox.enqueue("telegram", { text: "two" }, { to: "8" });
      const receipt = outbox.receipt(id);
      const waiting = await gauge();
      expect(waiting).toMatchObject({ waiting: 2, pending: 1 });
      expect(waiting.oldest).toBeGreaterThanOrEqual(0);
      const worker = await outbox.createWorker();
      expect((await receipt).status).toBe("delivered");
      await worker.close();
      expect(await gauge()).toMatchObject({ pending: 0 });
    } finally {
      stopGauges();
      await outbox.close();
    }
  });

  it("one trace in process, span by span", async () => {
    const outbox = await createOutbox({ adapters: factories() });
    try {
      const { id, traceId, spanId } = await enqueueUnder(outbox);
      const worker = await outbox.createWorker();
      expect((await outbox.receipt(id)).status).toBe("delivered");
      await worker.close();
      expectOneTrace(traceId, spanId);
    } finally {
      await outbox.close();
    }
  });

  it.skipIf(redisMissing)("through Redis, the job carries the trace to the worker", async () => {
    const redis = await startRedis();
    const outbox = await createOutbox({ adapters: factories(), connection: redis.url, partitions: 2 });
    try {
      const { id, traceId, spanId } = await enqueueUnder(outbox);
      const gauges = observeQueue(outbox, { meterProvider: otel.meterProvider });
      const waiting = points(await otel.collect(), "outbox.queue.jobs");
      gauges();
      expect(waiting.find((p) => p.attributes["outbox.queue.state"] === "waiting")?.value).toBe(1);
      const worker = await outbox.createWorker();
      expect((await outbox.receipt(id)).status).toBe("delivered");
      await worker.close();
      expectOneTrace(traceId, spanId);
    } finally {
      await outbox.close();
      await redis.stop();
    }
  });
});
