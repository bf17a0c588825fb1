/**
 * The adapters a worker holds, one per account: the platform's `adapters` factory for the
 * `default` account, else the integrator's resolver, built on the account's first job, kept
 * while used and closed once idle. An account whose token was refused is resolved again on
 * its next job (the integrator may have stored a new token meanwhile).
 */
import { type ChannelAdapter, systemClock } from "@outbox/core";
import type { AccountRef, AdapterServices, OutboxConfig, QueuedReceipt } from "./types.js";

/** The account a job names when it names none. */
export const DEFAULT_ACCOUNT = "default";

const DEFAULT_IDLE_MS = 600_000;

/** The error code of a refused token (core's `AuthError`). */
const AUTH_FAILED = "auth_failed";

/**
 * One string per account for keys and lanes: the platform alone for `default` (the names
 * outboxes had before accounts), else `platform@account` with the account URI-encoded so
 * that no two accounts share one.
 */
export function accountScope(platform: string, account: string = DEFAULT_ACCOUNT): string {
  return account === DEFAULT_ACCOUNT ? platform : `${platform}@${encodeURIComponent(account)}`;
}

/** Platforms an outbox can queue for: those with a factory and those the resolver serves. */
export function platformsOf(config: OutboxConfig): string[] {
  return [...new Set([...Object.keys(config.adapters), ...(config.accounts?.platforms ?? [])])];
}

interface Entry {
  adapter: Promise<ChannelAdapter>;
  uses: number;
  lastUsed: number;
  /** Built by the resolver (closed when idle), not a long-lived `adapters` factory. */
  resolved: boolean;
  /** Dropped after an auth failure: closed once its last job ends, never handed out again. */
  dropped: boolean;
}

/** An account's adapter lent to one job. */
export interface Lease {
  adapter: ChannelAdapter;
  /** The job ended with `receipt` (absent when it did not run to a receipt). */
  release(receipt?: QueuedReceipt): void;
}

/** A worker's adapters by account (see the module comment). */
export interface AdapterPool {
  /** The account's adapter, built on first use; release the lease when the job ends. */
  acquire(ref: AccountRef): Promise<Lease>;
  /** Close every adapter. */
  close(): Promise<void>;
}

/**
 * A pool over `config`; `servicesOf` gives an account's adapter its services (`built` reads
 * the adapter once it exists, for a rate gate that needs its capabilities).
 */
export function createAdapterPool(
  config: OutboxConfig,
  servicesOf: (ref: AccountRef, built: () => ChannelAdapter) => AdapterServices,
): AdapterPool {
  const clock = config.accounts?.clock ?? systemClock;
  const idleMs = config.accounts?.idleMs ?? DEFAULT_IDLE_MS;
  const entries = new Map<string, Entry>();
  // Idle adapters are closed at each job, and by this timer when no job comes.
  let timer: NodeJS.Timeout | undefined;

  const closeEntry = (entry: Entry): void => {
    entry.adapter.then(
      (adapter) => adapter.close?.(),
      () => undefined,
    );
  };
  const sweep = (): void => {
    const now = clock.now();
    for (const [scope, entry] of entries)
      if (entry.uses === 0 && entry.resolved && now - entry.lastUsed >= idleMs) {
        entries.delete(scope);
        closeEntry(entry);
      }
  };
  const build = async (ref: AccountRef, entry: Entry): Promise<ChannelAdapter> => {
    let adapter: ChannelAdapter | undefined;
    const services = servicesOf(ref, () => {
      if (adapter === undefined) throw new Error("the adapter is used before its factory returned");
      return adapter;
    });
    const factory = ref.account === DEFAULT_ACCOUNT ? config.adapters[ref.platform] : undefined;
    if (factory !== undefined) adapter = factory(services);
    else {
      entry.resolved = true;
      if (config.accounts?.platforms.includes(ref.platform) !== true)
        throw new RangeError(`no adapter named ${JSON.stringify(ref.platform)} in this worker`);
      adapter = await config.accounts.resolve(ref, services);
      if (adapter === undefined)
        throw new RangeError(
          `no account ${JSON.stringify(ref.account)} on ${ref.platform}: the resolver knows none`,
        );
    }
    return adapter;
  };
  const entryOf = (ref: AccountRef): Entry => {
    const scope = accountScope(ref.platform, ref.account);
    const found = entries.get(scope);
    if (found !== undefined) return found;
    const entry: Entry = {
      adapter: Promise.resolve() as Promise<never>,
      uses: 0,
      lastUsed: clock.now(),
      resolved: false,
      dropped: false,
    };
    entry.adapter = build(ref, entry);
    // A failed resolution is not kept: the account's next job asks the resolver again.
    entry.adapter.catch(() => {
      if (entries.get(scope) === entry) entries.delete(scope);
    });
    entries.set(scope, entry);
    return entry;
  };

  return {
    async acquire(ref) {
      sweep();
      if (timer === undefined && config.accounts !== undefined) {
        timer = setInterval(sweep, Math.max(1000, idleMs / 2));
        timer.unref();
      }
      const entry = entryOf(ref);
      entry.uses += 1;
      let adapter: ChannelAdapter;
      try {
        adapter = await entry.adapter;
      } catch (error) {
        entry.uses -= 1;
        throw error;
      }
      let released = false;
      return {
        adapter,
        release(receipt) {
          if (released) return;
          released = true;
          entry.uses -= 1;
          entry.lastUsed = clock.now();
          if (!entry.dropped && receipt?.receipt?.failures.some(({ error }) => error.code === AUTH_FAILED)) {
            entry.dropped = true;
            const scope = accountScope(ref.platform, ref.account);
            if (entries.get(scope) === entry) entries.delete(scope);
          }
          if (entry.dropped && entry.uses === 0) closeEntry(entry);
          sweep();
        },
      };
    },
    async close() {
      clearInterval(timer);
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(
        all.map((entry) =>
          entry.adapter.then(
            (adapter) => adapter.close?.(),
            () => undefined,
          ),
        ),
      );
    },
  };
}
