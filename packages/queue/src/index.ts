/**
 * @outbox/queue: replies queued and delivered at scale on BullMQ and Redis, with per-target
 * order, rate limits shared by every worker and once-only delivery across crashes; the same
 * API in process without Redis.
 *
 * @packageDocumentation
 */
export { createOutbox } from "./create-outbox.js";
export type * from "./types.js";
