/**
 * Listeners and receipt waiters of an outbox, shared by both modes: results are recorded as
 * they arrive (from this process or, in Redis mode, from any worker).
 */
import type { OutboxEvents, QueuedReceipt, RedisStateChange } from "./types.js";

/** Fan-out of finished deliveries to `on` listeners and `receipt` waiters. */
export class Completions {
  private readonly listeners: { [E in keyof OutboxEvents]: Set<OutboxEvents[E]> } = {
    finished: new Set(),
    dead: new Set(),
    redis: new Set(),
  };
  private readonly waiters = new Map<string, Set<(receipt: QueuedReceipt) => void>>();

  /** Listen to an event; returns the function that stops listening. */
  on<E extends keyof OutboxEvents>(event: E, listener: OutboxEvents[E]): () => void {
    const set = this.listeners[event] as Set<OutboxEvents[E]>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Ids whose receipts are awaited. */
  get pending(): string[] {
    return [...this.waiters.keys()];
  }

  /** Settle the waiters of a receipt found by a lookup (listeners are not told). */
  settle(receipt: QueuedReceipt): void {
    const waiting = this.waiters.get(receipt.id);
    this.waiters.delete(receipt.id);
    for (const resolve of waiting ?? []) resolve(receipt);
  }

  /** Redis's state changed. */
  redis(change: RedisStateChange): void {
    for (const listener of this.listeners.redis) listener(change);
  }

  /** A delivery finished: notify waiters of its id and listeners. */
  emit(receipt: QueuedReceipt): void {
    this.settle(receipt);
    this.announce(receipt);
  }

  /** Tell the `finished` (and, when dead, `dead`) listeners of a receipt (waiters are not settled). */
  announce(receipt: QueuedReceipt): void {
    for (const listener of this.listeners.finished) listener(receipt);
    if (receipt.status === "dead") for (const listener of this.listeners.dead) listener(receipt);
  }

  /**
   * Wait for the receipt of `id`. `lookup` is asked once the waiter is registered (so a
   * result recorded meanwhile is not missed) and resolves it when the job already finished.
   */
  wait(
    id: string,
    lookup: () => Promise<QueuedReceipt | undefined>,
    signal?: AbortSignal,
  ): Promise<QueuedReceipt> {
    signal?.throwIfAborted();
    return new Promise<QueuedReceipt>((resolve, reject) => {
      const set = this.waiters.get(id) ?? new Set();
      this.waiters.set(id, set);
      const done = (receipt: QueuedReceipt): void => {
        set.delete(done);
        if (set.size === 0 && this.waiters.get(id) === set) this.waiters.delete(id);
        signal?.removeEventListener("abort", abort);
        resolve(receipt);
      };
      const abort = (): void => {
        set.delete(done);
        if (set.size === 0 && this.waiters.get(id) === set) this.waiters.delete(id);
        reject(signal?.reason);
      };
      set.add(done);
      signal?.addEventListener("abort", abort, { once: true });
      lookup().then((found) => found !== undefined && done(found), reject);
    });
  }
}
