/**
 * Redis's state as this process's connections see it: the first failure after being up is
 * reported once as `down`, the next connection ready as `up`. Every connection and BullMQ
 * queue or worker is watched, so none prints to stderr (ioredis and BullMQ print errors
 * nobody listens to, once per reconnection attempt).
 */
import type { RedisStateChange } from "../types.js";
import type { RedisClient } from "./keys.js";

/** The tracker of one outbox. */
export interface RedisHealth {
  /** Follow a connection: its errors (`down`) and its readiness (`up`). */
  watch(connection: RedisClient): void;
  /** Report a failure from a BullMQ queue or worker (their `error` event). */
  failed(error: Error): void;
}

/** A tracker that tells `report` each change of state. */
export function createRedisHealth(report: (change: RedisStateChange) => void): RedisHealth {
  let down = false;
  const failed = (error: Error): void => {
    if (down) return;
    down = true;
    report({ state: "down", error: error.message });
  };
  const ready = (): void => {
    if (!down) return;
    down = false;
    report({ state: "up" });
  };
  return {
    failed,
    watch(connection) {
      connection.on("error", failed);
      connection.on("ready", ready);
    },
  };
}
