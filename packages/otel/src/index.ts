/**
 * @outbox/otel: OpenTelemetry traces and metrics for Outbox. `instrumentOutbox()` subscribes
 * to the diagnostics channels the engine and the queue publish on (spans per send, agent run,
 * part, platform call and queued job; delivery metrics); `observeQueue(outbox)` adds the
 * queue's gauges. `@opentelemetry/api` is this package's peer: Outbox itself never imports it.
 *
 * @packageDocumentation
 */
export { ATTR, type Outcome } from "./attributes.js";
export { instrumentOutbox, type OutboxTelemetry, type OutboxTelemetryOptions } from "./instrument.js";
export { type ObserveQueueOptions, observeQueue, type QueueStatsSource } from "./queue-metrics.js";
