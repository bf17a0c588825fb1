import { platformsOf } from "./adapter-pool.js";
import { createInProcessOutbox } from "./in-process.js";
import { createRedisOutbox } from "./redis/outbox.js";
import type { Outbox, OutboxConfig } from "./types.js";

/**
 * An outbox: `enqueue` replies, `createWorker` to deliver them, `receipt` / `on` for the
 * results. With `connection` the jobs live in Redis (BullMQ) and any number of worker
 * processes deliver them with per-target order, shared rate limits and once-only delivery
 * across crashes; without, everything runs in this process (see docs/scale.md).
 */
export async function createOutbox(config: OutboxConfig): Promise<Outbox> {
  if (platformsOf(config).length === 0)
    throw new TypeError(
      "createOutbox: neither `adapters` nor `accounts` names a platform; pass e.g. adapters: { telegram: (services) => createTelegramAdapter({ token, ...services }) }",
    );
  const { connection } = config;
  return connection === undefined
    ? createInProcessOutbox(config)
    : createRedisOutbox({ ...config, connection });
}
