/**
 * A worker process with the SDK and Outbox's instrumentation exporting over OTLP HTTP: the
 * other side of the cross-process trace test. Told its Redis, emulator and receiver in
 * OUTBOX_OTLP_WORKER; reports `ready` over IPC, and on `stop` closes the worker, flushes its
 * spans and exits.
 */
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { createOutbox } from "@outbox/queue";
import { createTelegramAdapter } from "@outbox/telegram";
import { instrumentOutbox } from "../../src/index.js";

/** What the worker process is told. */
export interface OtlpWorkerOptions {
  redis: string;
  telegram: { apiRoot: string; token: string };
  traces: string;
}

const options = JSON.parse(process.env.OUTBOX_OTLP_WORKER ?? "{}") as OtlpWorkerOptions;
const tracerProvider = new NodeTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: options.traces }))],
});
tracerProvider.register();
const telemetry = instrumentOutbox({ hashKey: "shared-key" });
const outbox = await createOutbox({
  adapters: { telegram: (services) => createTelegramAdapter({ ...options.telegram, ...services }) },
  connection: options.redis,
  partitions: 2,
});
const worker = await outbox.createWorker();
process.on("message", async () => {
  await worker.close();
  await outbox.close();
  telemetry.stop();
  await tracerProvider.shutdown();
  process.exit(0);
});
process.send?.("ready");
