/**
 * A replayable feed of progress items: the run pushes, any number of readers iterate from
 * the start. Readers that come late see every item; the feed ends when the run ends.
 */

/** The writing and reading ends of a feed. */
export interface ProgressFeed<T> {
  /** Append an item. */
  push(item: T): void;
  /** End the feed; readers finish after the last item. */
  close(): void;
  /** Iterate every item from the first. */
  iterate(): AsyncIterator<T>;
}

/** Create an empty feed. */
export function createProgressFeed<T>(): ProgressFeed<T> {
  const items: T[] = [];
  let closed = false;
  let wake: Array<() => void> = [];
  const notify = (): void => {
    const waiting = wake;
    wake = [];
    for (const resolve of waiting) resolve();
  };
  return {
    push(item) {
      items.push(item);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
    iterate() {
      let index = 0;
      return {
        async next(): Promise<IteratorResult<T>> {
          while (index >= items.length && !closed) await new Promise<void>((resolve) => wake.push(resolve));
          if (index < items.length) return { done: false, value: items[index++] as T };
          return { done: true, value: undefined };
        },
      };
    },
  };
}
