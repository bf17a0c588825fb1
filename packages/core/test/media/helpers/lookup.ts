/**
 * A scripted `dns.lookup` for tests: each name maps to a list of answers, one per call
 * (the last answer repeats), so rebinding (public first, private next) can be staged.
 */
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";

/** A scripted resolver and its call log. */
export interface FakeLookup {
  /** The `dns.lookup`-compatible function to put in the policy. */
  lookup: LookupFunction;
  /** Names looked up, in order. */
  calls: string[];
}

/** Builds a resolver from `name → answers` (an answer is one address or a list of addresses). */
export function fakeLookup(table: Record<string, Array<string | string[]>>): FakeLookup {
  const calls: string[] = [];
  const seen = new Map<string, number>();
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    calls.push(hostname);
    const answers = table[hostname];
    if (answers === undefined || answers.length === 0) {
      const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      queueMicrotask(() => callback(error));
      return;
    }
    const index = Math.min(seen.get(hostname) ?? 0, answers.length - 1);
    seen.set(hostname, index + 1);
    const answer = answers[index] ?? [];
    const list: LookupAddress[] = (Array.isArray(answer) ? answer : [answer]).map((address) => ({
      address,
      family: isIP(address),
    }));
    queueMicrotask(() =>
      options.all ? callback(null, list) : callback(null, list[0]?.address, list[0]?.family),
    );
  }) as LookupFunction;
  return { lookup, calls };
}
