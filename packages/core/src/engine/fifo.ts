/** A first-in first-out queue with O(1) push, shift and unshift (an array with a moving head). */
export class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  /** Number of items queued. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** The first item, without removing it. */
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

  /** Remove and return the first item. */
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
