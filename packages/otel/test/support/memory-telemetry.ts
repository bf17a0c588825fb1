/**
 * The OpenTelemetry SDK with in-memory exporters, and Outbox's instrumentation on it: what the
 * tests read spans and metrics from. The tracer provider is registered globally (its context
 * manager and the W3C propagator are what carry a trace across the queue), as an application's
 * would be.
 */
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from "@opentelemetry/sdk-metrics";
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-node";
import { instrumentOutbox, type OutboxTelemetry } from "../../src/index.js";

/** The SDK, the instrumentation, and what they recorded. */
export interface MemoryTelemetry {
  /** The instrumentation (stopped by `close`). */
  telemetry: OutboxTelemetry;
  /** The meter provider (for `observeQueue`). */
  meterProvider: MeterProvider;
  /** Spans ended so far. */
  spans(): ReadableSpan[];
  /** Metrics collected now (cumulative since the start). */
  collect(): Promise<ResourceMetrics[]>;
  /** Forget the spans recorded so far. */
  reset(): void;
  /** Stop the instrumentation and the SDK, unregister the globals. */
  close(): Promise<void>;
}

/** Start the SDK with in-memory exporters and instrument Outbox into it. */
export function startMemoryTelemetry(): MemoryTelemetry {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  tracerProvider.register();
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = instrumentOutbox({ tracerProvider, meterProvider, hashKey: "test-key" });
  return {
    telemetry,
    meterProvider,
    spans: () => spanExporter.getFinishedSpans(),
    async collect() {
      metricExporter.reset();
      await reader.forceFlush();
      return metricExporter.getMetrics();
    },
    reset: () => spanExporter.reset(),
    async close() {
      telemetry.stop();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      metrics.disable();
    },
  };
}

/** The data points of the metric `name`, as attributes and value (a histogram's count and sum). */
export function points(
  collected: ResourceMetrics[],
  name: string,
): Array<{ attributes: Record<string, unknown>; value: number; sum?: number }> {
  const out: Array<{ attributes: Record<string, unknown>; value: number; sum?: number }> = [];
  for (const resource of collected)
    for (const scope of resource.scopeMetrics)
      for (const metric of scope.metrics)
        if (metric.descriptor.name === name)
          for (const point of metric.dataPoints) {
            const value = point.value as number | { count: number; sum?: number };
            out.push(
              typeof value === "number"
                ? { attributes: point.attributes, value }
                : {
                    attributes: point.attributes,
                    value: value.count,
                    ...(value.sum === undefined ? {} : { sum: value.sum }),
                  },
            );
          }
  return out;
}
