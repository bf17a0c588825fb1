/**
 * What the fault matrix's spans and metrics may hold: every attribute is one Outbox records,
 * with a value of its expected shape (a platform name, a 16-digit hash, an outcome, an error
 * code, a number), and no recorded string holds a forbidden one (a message's text, a chat id, a
 * token, a media file name or a URL). The shapes are what keeps out what no list names.
 */
import type { ResourceMetrics } from "@opentelemetry/sdk-metrics";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { platforms } from "./platforms.js";

const word = /^[a-z][a-z_]*$/;
const hash = /^[0-9a-f]{16}$/;
const platformName = new RegExp(`^(${platforms.map((platform) => platform.name).join("|")})$`);

/** The shape of each attribute's value: a pattern for strings, `number` for numbers. */
const SHAPES: Record<string, RegExp | "number"> = {
  "outbox.platform": platformName,
  "outbox.target.hash": hash,
  "outbox.job.hash": hash,
  "outbox.part.index": "number",
  "outbox.part.type": /^(text|media|album)$/,
  "outbox.attempt": "number",
  "outbox.call.kind": /^(text|media|album)$/,
  "outbox.outcome": /^(delivered|failed|ambiguous)$/,
  "outbox.wait.ms": "number",
  "outbox.parts.delivered": "number",
  "outbox.parts.failed": "number",
  "outbox.parts.ambiguous": "number",
  "outbox.job.previous_attempts": "number",
  "outbox.job.status": /^(delivered|failed|dead)$/,
  "outbox.queue.state": /^(waiting|active|delayed)$/,
  "error.type": /^[A-Za-z_]+$/,
  "http.response.status_code": "number",
  "messaging.system": word,
  "messaging.operation.type": word,
  "messaging.operation.name": word,
  "messaging.destination.name": word,
};

const SPAN_NAMES = new Set([
  "outbox.send",
  "outbox.agent_run",
  "outbox.part",
  "outbox.call",
  "send outbox",
  "process outbox",
]);

/** Why `attributes` breaks the rules, each reason prefixed with `where`. */
function checkAttributes(
  where: string,
  attributes: Record<string, unknown>,
  forbidden: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    const shape = SHAPES[key];
    if (shape === undefined) problems.push(`${where}: unknown attribute ${key}`);
    else if (shape === "number" ? typeof value !== "number" : typeof value !== "string" || !shape.test(value))
      problems.push(`${where}: ${key} = ${JSON.stringify(value)} is not of its shape`);
    if (typeof value === "string")
      for (const bad of forbidden) if (value.includes(bad)) problems.push(`${where}: ${key} holds ${bad}`);
  }
  return problems;
}

/** Every problem of the recorded spans and metrics (none: they hold nothing they must not). */
export function scanTelemetry(
  spans: readonly ReadableSpan[],
  collected: readonly ResourceMetrics[],
  forbidden: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const span of spans) {
    const where = `span ${span.name}`;
    if (!SPAN_NAMES.has(span.name)) problems.push(`${where}: unknown span name`);
    problems.push(...checkAttributes(where, span.attributes, forbidden));
    for (const event of span.events)
      problems.push(...checkAttributes(`${where} event ${event.name}`, event.attributes ?? {}, forbidden));
    const status = span.status.message ?? "";
    if (status !== "" && !word.test(status))
      problems.push(`${where}: status message ${JSON.stringify(status)}`);
  }
  for (const resource of collected)
    for (const scope of resource.scopeMetrics)
      for (const metric of scope.metrics)
        for (const point of metric.dataPoints)
          problems.push(...checkAttributes(`metric ${metric.descriptor.name}`, point.attributes, forbidden));
  return problems;
}
