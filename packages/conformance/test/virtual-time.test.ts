/**
 * Virtual time: a harness that declares `virtualTime` gets one manual clock per case, the
 * case's waits pass on it, and the clock stands still while a request travels; a harness
 * that does not gets no clock and its cases wait in real time.
 */
import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { type Clock, createManualClock, systemClock } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { conformanceCases } from "../src/cases/registry.js";
import { runCase } from "../src/describe-conformance.js";
import { referenceCapabilities } from "../src/reference/capabilities.js";
import { createReferenceHarness } from "../src/reference/harness.js";
import type { ConformanceCase, ConformanceHarness } from "../src/types.js";
import { inVirtualTime } from "../src/virtual-time.js";

/** Case `id`, handing the clock its context carries to `seen` first. */
function watched(id: string, seen: (clock: Clock) => void): ConformanceCase {
  const found = conformanceCases.find((c) => c.id === id) as ConformanceCase;
  return {
    ...found,
    run: (ctx) => {
      seen(ctx.clock);
      return found.run(ctx);
    },
  };
}

/** The reference harness, with or without `virtualTime`, recording each setup's clock and its time then. */
function recording(virtualTime: boolean) {
  const { virtualTime: _declared, ...reference } = createReferenceHarness();
  const setups: Array<{ clock: Clock | undefined; at: number | undefined }> = [];
  const harness: ConformanceHarness = {
    ...reference,
    ...(virtualTime ? { virtualTime } : {}),
    setup: (options) => {
      setups.push({ clock: options?.clock, at: options?.clock?.now() });
      return reference.setup(options);
    },
  };
  return { harness, setups };
}

describe("runCase and the harness's clock", () => {
  it("builds a virtualTime harness on a manual clock, on which the case's waits pass", async () => {
    const { harness, setups } = recording(true);
    let clock: Clock = systemClock;
    await runCase(
      watched("edits.not-modified", (seen) => {
        clock = seen;
      }),
      harness,
      { strict: true },
    );
    expect(clock, "the case's clock").not.toBe(systemClock);
    expect(setups.map((s) => s.clock)).toEqual([clock]);
    // The case writes three updates, each an edit interval and 50 ms after the one before.
    const interval = referenceCapabilities.edits?.minIntervalMs as number;
    expect(clock.now() - (setups[0]?.at as number)).toBeGreaterThanOrEqual(3 * (interval + 50));
  });

  it("gives a harness without virtualTime no clock: its cases run on the real one", async () => {
    const { harness, setups } = recording(false);
    let clock: Clock | undefined;
    await runCase(
      watched("fault.rate-limit", (seen) => {
        clock = seen;
      }),
      harness,
      { strict: true },
    );
    expect(setups.map((s) => s.clock)).toEqual([undefined]);
    expect(clock).toBe(systemClock);
  });
});

describe("inVirtualTime", () => {
  /** A server answering after `latencyMs` of real time, recording the clock's time at each arrival. */
  async function slowServer(clock: Clock, latencyMs: number) {
    const arrivals: number[] = [];
    const server = createServer((_req, res) => {
      arrivals.push(clock.now());
      setTimeout(() => res.end("ok"), latencyMs);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return { url, arrivals, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  const viaHttp = (url: string): Promise<void> =>
    new Promise((resolve, reject) => {
      httpRequest(url, (res) => res.resume().on("end", resolve))
        .on("error", reject)
        .end();
    });
  const viaFetch = async (url: string): Promise<void> => {
    await (await fetch(url)).text();
  };

  for (const [client, get] of [
    ["fetch (undici)", viaFetch],
    ["node:http", viaHttp],
  ] as const)
    it(`stands still while a ${client} request travels, then moves to the next wake-up`, async () => {
      const clock = createManualClock(5_000);
      const server = await slowServer(clock, 30);
      try {
        const times: Record<string, number> = {};
        await inVirtualTime(clock, () =>
          Promise.all([
            clock.sleep(1_000).then(() => {
              times.woke = clock.now();
            }),
            get(server.url).then(() => {
              times.answered = clock.now();
            }),
          ]),
        );
        expect(server.arrivals, "the clock when the request arrived").toEqual([5_000]);
        expect(times).toEqual({ answered: 5_000, woke: 6_000 });
      } finally {
        await server.close();
      }
    });

  it("settles like the work: its rejection, after the waits it made", async () => {
    const clock = createManualClock();
    const failing = clock.sleep(250).then(() => Promise.reject(new Error("after the wait")));
    await expect(inVirtualTime(clock, () => failing)).rejects.toThrow("after the wait");
    expect(clock.now()).toBe(250);
  });
});
