/**
 * End to end through OTLP: the SDK's OTLP HTTP exporters (JSON) send a queued reply's trace
 * and the delivery and queue metrics to a receiver this test starts on 127.0.0.1, as they would
 * to a collector; the receiver sees one trace from the producer's span to the platform call,
 * in one process, and across two (the producer here, the worker in a child process exporting
 * to its own path, Redis between them).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { createOutbox } from "@outbox/queue";
import { createTelegramAdapter } from "@outbox/telegram";
import { startTelegramEmulator } from "@outbox/telegram/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { redisMissing, startRedis } from "../../queue/test/support/redis-server.js";
import { instrumentOutbox, observeQueue } from "../src/index.js";
import type { OtlpWorkerOptions } from "./support/otlp-worker.js";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/** What the receiver got, by path. */
const received: Record<string, unknown[]> = {};

type TraceBody = { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
/** The spans the receiver got on `path`. */
const spansAt = (path: string): OtlpSpan[] =>
  ((received[path] ?? []) as TraceBody[])
    .flatMap((body) => body.resourceSpans)
    .flatMap((resource) => resource.scopeSpans)
    .flatMap((scope) => scope.spans);
let receiver: Server;
let endpoint: string;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "";
      received[path] = [...(received[path] ?? []), JSON.parse(Buffer.concat(chunks).toString("utf8"))];
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => {
  receiver.close();
});

it("a queued reply's trace and the metrics reach an OTLP receiver", async () => {
  const emulator = await startTelegramEmulator({ chats: [{ id: 5 }] });
  const tracerProvider = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))],
  });
  tracerProvider.register();
  const reader = new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url: `${endpoint}/v1/metrics` }),
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = instrumentOutbox({ meterProvider });
  const outbox = await createOutbox({
    adapters: {
      telegram: (services) =>
        createTelegramAdapter({ token: emulator.token, apiRoot: emulator.apiRoot, ...services }),
    },
  });
  const stopGauges = observeQueue(outbox, { meterProvider });
  try {
    const producer = await trace.getTracer("agent").startActiveSpan("agent turn", async (span) => {
      const { id } = await outbox.enqueue("telegram", { text: "over OTLP" }, { to: "5" });
      span.end();
      return { id, traceId: span.spanContext().traceId };
    });
    const worker = await outbox.createWorker();
    expect((await outbox.receipt(producer.id)).status).toBe("delivered");
    await worker.close();
    await tracerProvider.forceFlush();
    await reader.forceFlush();

    const spans = spansAt("/v1/traces");
    const named = (name: string) => spans.find((span) => span.name === name) as OtlpSpan;
    expect(spans.map((span) => span.name).sort()).toEqual(
      ["agent turn", "send outbox", "process outbox", "outbox.send", "outbox.part", "outbox.call"].sort(),
    );
    for (const span of spans) expect(span.traceId).toBe(producer.traceId);
    expect(named("process outbox").parentSpanId).toBe(named("send outbox").spanId);
    expect(named("outbox.call").parentSpanId).toBe(named("outbox.part").spanId);

    const metricNames = (
      received["/v1/metrics"] as Array<{
        resourceMetrics: Array<{ scopeMetrics: Array<{ metrics: Array<{ name: string }> }> }>;
      }>
    )
      .flatMap((body) => body.resourceMetrics)
      .flatMap((resource) => resource.scopeMetrics)
      .flatMap((scope) => scope.metrics.map((metric) => metric.name));
    // A pacing wait shows too when the pacer made the call wait: not asserted, it depends on timing.
    expect(metricNames).toEqual(
      expect.arrayContaining([
        "outbox.parts",
        "outbox.part.duration",
        "outbox.queue.jobs",
        "outbox.queue.oldest_waiting",
        "outbox.receipts.pending",
      ]),
    );
  } finally {
    stopGauges();
    telemetry.stop();
    await outbox.close();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    metrics.disable();
    await emulator.close();
  }
});

it.skipIf(redisMissing)(
  "across processes: the worker's spans continue the producer's trace through Redis",
  {
    timeout: 60_000,
  },
  async () => {
    const redis = await startRedis();
    const emulator = await startTelegramEmulator({ chats: [{ id: 6 }] });
    const worker = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=source",
        new URL("./support/otlp-worker.ts", import.meta.url).pathname,
      ],
      {
        stdio: ["ignore", "inherit", "inherit", "ipc"],
        env: {
          ...process.env,
          OUTBOX_OTLP_WORKER: JSON.stringify({
            redis: redis.url,
            telegram: { apiRoot: emulator.apiRoot, token: emulator.token },
            traces: `${endpoint}/worker/v1/traces`,
          } satisfies OtlpWorkerOptions),
        },
      },
    );
    const exited = once(worker, "exit");
    const tracerProvider = new NodeTracerProvider({
      spanProcessors: [
        new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/producer/v1/traces` })),
      ],
    });
    tracerProvider.register();
    const telemetry = instrumentOutbox({ hashKey: "shared-key" });
    const outbox = await createOutbox({
      adapters: {
        telegram: (services) =>
          createTelegramAdapter({ token: emulator.token, apiRoot: emulator.apiRoot, ...services }),
      },
      connection: redis.url,
      partitions: 2,
    });
    try {
      await once(worker, "message");
      const producer = await trace.getTracer("agent").startActiveSpan("agent turn", async (span) => {
        const { id } = await outbox.enqueue("telegram", { text: "across processes" }, { to: "6" });
        span.end();
        return { id, traceId: span.spanContext().traceId };
      });
      expect((await outbox.receipt(producer.id)).status).toBe("delivered");
      worker.send("stop");
      await exited;
      await tracerProvider.forceFlush();
      const fromWorker = spansAt("/worker/v1/traces");
      const fromProducer = spansAt("/producer/v1/traces");
      expect(fromWorker.map((span) => span.name).sort()).toEqual(
        ["process outbox", "outbox.send", "outbox.part", "outbox.call"].sort(),
      );
      expect(fromProducer.map((span) => span.name).sort()).toEqual(["agent turn", "send outbox"].sort());
      const all = [...fromProducer, ...fromWorker];
      for (const span of all) expect(span.traceId).toBe(producer.traceId);
      const named = (name: string) => all.find((span) => span.name === name) as OtlpSpan;
      expect(named("process outbox").parentSpanId).toBe(named("send outbox").spanId);
      expect(named("outbox.send").parentSpanId).toBe(named("process outbox").spanId);
    } finally {
      if (worker.exitCode === null) worker.kill();
      telemetry.stop();
      await outbox.close();
      await tracerProvider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      await emulator.close();
      await redis.stop();
    }
  },
);
