/**
 * A first-in first-out queue: an array with a moving head, so `push` and `shift` take
 * constant time (amortized) however long the queue grows, where `Array.prototype.shift`
 * may move every remaining item. `unshift` is constant time after a `shift` (it reuses the freed
 * slot) and moves the items otherwise. The pacer's lanes and `@outbox/queue`'s in-process
 * lanes use it.
 */
export class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  /** Number of items queued. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** The first item, without removing it; `undefined` when empty. */
  peek(): T | undefined {
    return this.items[this.head];
  }

  /** Add at the back. */
  push(item: T): void {
    this.items.push(item);
  }

  /** Add at the front. */
  unshift(item: T): void {
    if (this.head > 0) this.items[--this.head] = item;
    else this.items.unshift(item);
  }

  /** Remove and return the first item; `undefined` when empty. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
