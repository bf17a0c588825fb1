import { mergeConfig } from "vitest/config";
import { outboxProject } from "../../vitest.shared.js";

/**
 * Redis-backed tests start their own redis-server and worker processes: longer timeouts, and
 * one file at a time after every other project (their lock and outage timers are real).
 */
export default mergeConfig(outboxProject("queue", import.meta.url), {
  test: { testTimeout: 120_000, hookTimeout: 60_000, maxWorkers: 1, sequence: { groupOrder: 1 } },
});
