/**
 * @outbox/core/internal: engine pieces Outbox's own packages share (the FIFO and rate
 * limiting that `@outbox/queue` runs across processes, the pacer, the resolved retry policy).
 * Not for integrators: names here may change in any release.
 *
 * @packageDocumentation
 */

export { Fifo } from "../engine/fifo.js";
export { heldBackBurst, type LimitRates, limitRates } from "../engine/limit-rates.js";
export {
  createPacer,
  type Pacer,
  type PacerTicket,
  resolvePacing,
} from "../engine/pacer.js";
export { type ResolvedRetryPolicy, resolveRetryPolicy } from "../engine/retry.js";
export { traced } from "../observe/channels.js";
