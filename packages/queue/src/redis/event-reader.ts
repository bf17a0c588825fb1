/**
 * The `finished` and `dead` events of a Redis outbox, read from the stream every worker
 * appends a finished delivery to. The reader keeps the id of the last entry it read, so
 * after a dropped connection or a Redis restart it goes on from there: an event is told once,
 * none is skipped while the stream still holds it (the newest 10,000 deliveries). Pub/sub
 * could not do that: a message published while the subscriber reconnects is gone.
 */
import type { QueuedReceipt } from "../types.js";
import type { RedisClient } from "./keys.js";

/** How long one XREAD waits for new entries before it asks again, in ms. */
const BLOCK_MS = 5_000;
/** Entries read at a time. */
const BATCH = 100;
/** Wait before asking again after a failed read (the connection reconnects meanwhile), in ms. */
const RETRY_MS = 500;

/** A running reader. */
export interface EventReader {
  /** Stop reading and close the reader's connection. */
  stop(): void;
}

/** The id of the newest entry of stream `key` (`0-0` when it is empty). */
export async function newestEntry(redis: RedisClient, key: string): Promise<string> {
  const newest = await redis.xrevrange(key, "+", "-", "COUNT", 1);
  return newest[0]?.[0] ?? "0-0";
}

/**
 * Read the events stream `key` on `connection` (a connection of its own: XREAD blocks it),
 * from the entries after `from`, telling each receipt to `announce` in order. `from` is
 * asked on the producer's own connection when the first listener comes, so a job it
 * enqueues after that is always read (its commands follow on the same connection).
 */
export function startEventReader(
  connection: RedisClient,
  key: string,
  from: Promise<string>,
  announce: (receipt: QueuedReceipt) => void,
): EventReader {
  let last: string | undefined;
  let stopped = false;
  const read = async (): Promise<void> => {
    last ??= await from.catch(() => newestEntry(connection, key));
    const answer = await connection.xread("COUNT", BATCH, "BLOCK", BLOCK_MS, "STREAMS", key, last);
    for (const [, entries] of answer ?? []) {
      for (const [id, fields] of entries) {
        last = id;
        const json = fields[fields.indexOf("receipt") + 1];
        if (json === undefined) continue;
        try {
          announce(JSON.parse(json) as QueuedReceipt);
        } catch (error) {
          // A listener's own error surfaces as an event listener's would, without
          // stopping the reader or skipping the entries after this one.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    }
  };
  void (async () => {
    while (!stopped) {
      try {
        await read();
      } catch {
        // A closed or failing connection: ioredis reconnects; ask again from the same entry.
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      }
    }
  })();
  return {
    stop() {
      stopped = true;
      connection.disconnect();
    },
  };
}
