/**
 * Virtual time for the conformance cases: the adapter's pacer and retry waits and the
 * emulator's rate windows run on one manual clock, which moves to its next wake-up only
 * once nothing else is under way. Real I/O still happens (the client library talks HTTP
 * to the emulator), so the clock must never move while a request travels: a request the
 * pacer released at one instant would otherwise reach the emulator's rate window at a
 * later one, and crowd the requests released after it.
 */
import { type Channel, channel } from "node:diagnostics_channel";
import type { ClientRequest } from "node:http";
import type { Clock, ManualClock } from "@outbox/core";
import type { ConformanceSetup } from "./types.js";

/** Event-loop turns with nothing under way before the clock moves (a promise chain may start a request). */
const QUIET_TURNS = 3;

/**
 * Pending requests of the event loop that mean work is under way: file system and DNS
 * requests, connects, socket writes (not the sockets, servers and timers that stay open).
 */
const BUSY_RESOURCE = /Req|Connect|Write|Shutdown/;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The HTTP requests of this process under way: each from its creation (Node's `http`
 * client, undici and `fetch`) until its answer's headers or its error. After the headers
 * the platform has counted it; the rest of the exchange cannot crowd a rate window.
 */
class Traffic {
  readonly #open = new Set<object>();
  #drained: (() => void) | undefined;

  readonly #httpStart = (message: unknown): void => {
    const request = (message as { request: ClientRequest }).request;
    this.#add(request);
    const done = (): void => this.#end(request);
    request.once("response", done);
    request.once("close", done);
  };
  readonly #httpEnd = (message: unknown): void => this.#end((message as { request: object }).request);
  readonly #undiciStart = (message: unknown): void => this.#add((message as { request: object }).request);
  readonly #undiciEnd = (message: unknown): void => this.#end((message as { request: object }).request);

  /** The channels, held here: a channel only a subscriber names may be collected, and a client loaded later would publish to a new one. */
  readonly #channels: Array<[Channel, (message: unknown) => void]> = [
    [channel("http.client.request.start"), this.#httpStart],
    [channel("http.client.request.error"), this.#httpEnd],
    [channel("http.client.response.finish"), this.#httpEnd],
    [channel("undici:request:create"), this.#undiciStart],
    [channel("undici:request:headers"), this.#undiciEnd],
    [channel("undici:request:error"), this.#undiciEnd],
  ];

  constructor() {
    for (const [published, listener] of this.#channels) published.subscribe(listener);
  }

  /** How many requests are under way. */
  get open(): number {
    return this.#open.size;
  }

  /** Resolves once no request is under way. */
  drained(): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#drained = resolve;
    });
  }

  stop(): void {
    for (const [published, listener] of this.#channels) published.unsubscribe(listener);
    this.#drained?.();
  }

  #add(request: object): void {
    this.#open.add(request);
  }

  #end(request: object): void {
    if (!this.#open.delete(request) || this.#open.size > 0) return;
    const drained = this.#drained;
    this.#drained = undefined;
    drained?.();
  }
}

/** Whether the event loop holds a pending file system, DNS, connect or write request. */
function busyResources(): boolean {
  return process.getActiveResourcesInfo().some((name) => BUSY_RESOURCE.test(name));
}

/**
 * Start `work` and settle it with `clock` moving in virtual time (the requests it makes
 * are watched from its start): whenever no HTTP request is under way
 * and no file system, DNS, connect or write request is pending for a few event-loop turns,
 * the clock moves to its earliest wake-up (sleepers due at the same instant wake in one
 * step). While something is under way the clock stands still, so every request reaches
 * the emulator at the instant it was released. Work that waits on something else (a real
 * timer of a client library) is waited for in real time. Resolves or rejects like `work`.
 */
export async function inVirtualTime<T>(clock: ManualClock, work: () => Promise<T>): Promise<T> {
  const traffic = new Traffic();
  let settled = false;
  const done = new Promise<T>((resolve) => resolve(work())).finally(() => {
    settled = true;
  });
  done.catch(() => undefined);
  const finished = done.then(
    () => undefined,
    () => undefined,
  );
  try {
    while (!settled) {
      let quiet = 0;
      while (!settled && quiet < QUIET_TURNS) {
        if (traffic.open > 0) {
          await Promise.race([traffic.drained(), finished]);
          quiet = 0;
        } else if (busyResources()) {
          await turn();
          quiet = 0;
        } else {
          await turn();
          quiet++;
        }
      }
      if (settled) break;
      const next = clock.next;
      if (next === undefined) await tick();
      else await clock.advance(next - clock.now());
    }
  } finally {
    traffic.stop();
  }
  return done;
}

/** What a harness builds on from `setup`'s clock (see {@link harnessClock}). */
export interface HarnessClock {
  /** `{ clock }` to spread into the adapter's options; empty without a clock. */
  adapter: { clock?: Clock };
  /** `{ now }` (the clock's milliseconds) to spread into the emulator's options; empty without a clock. */
  emulator: { now?: () => number };
}

/**
 * The options a harness that declares `virtualTime` spreads into its adapter and its
 * emulator from `setup`'s clock, both empty when `setup` brings none (real time).
 */
export function harnessClock(setup: ConformanceSetup | undefined): HarnessClock {
  const clock = setup?.clock;
  return clock === undefined
    ? { adapter: {}, emulator: {} }
    : { adapter: { clock }, emulator: { now: () => clock.now() } };
}
