import { describe, expect, it } from "vitest";
import { Fifo } from "../../src/internal/index.js";

/** Drain a queue into an array. */
function drain<T>(queue: Fifo<T>): T[] {
  const out: T[] = [];
  while (queue.size > 0) out.push(queue.shift() as T);
  return out;
}

describe("Fifo (exported from @outbox/core)", () => {
  it("gives items back in the order they were pushed; empty answers undefined", () => {
    const queue = new Fifo<string>();
    expect(queue.shift()).toBeUndefined();
    expect(queue.peek()).toBeUndefined();
    for (const item of ["a", "b", "c"]) queue.push(item);
    expect(queue.size).toBe(3);
    expect(queue.peek()).toBe("a");
    expect(queue.shift()).toBe("a");
    queue.push("d");
    expect(drain(queue)).toEqual(["b", "c", "d"]);
    expect(queue.size).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });

  it("unshift puts an item back at the front, after a shift and on a fresh queue", () => {
    const queue = new Fifo<number>();
    queue.unshift(2);
    queue.unshift(1);
    queue.push(3);
    expect(queue.shift()).toBe(1);
    queue.unshift(0);
    expect(drain(queue)).toEqual([0, 2, 3]);
  });

  it("keeps order across its compactions: 15,000 items pushed and shifted interleaved", () => {
    const queue = new Fifo<number>();
    const out: number[] = [];
    let next = 0;
    for (let round = 0; round < 100; round += 1) {
      for (let i = 0; i < 150; i += 1) queue.push(next++);
      for (let i = 0; i < 100; i += 1) out.push(queue.shift() as number);
      expect(queue.size).toBe(next - out.length);
      expect(queue.peek()).toBe(out.length);
    }
    out.push(...drain(queue));
    expect(out).toEqual(Array.from({ length: 15_000 }, (_, i) => i));
  });
});
