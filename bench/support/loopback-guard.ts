/**
 * Keeps a benchmark process on 127.0.0.1: every TCP connection (`net.Socket#connect`, which
 * `http.request`, `https`, undici and the global `fetch` all go through) to an address that is
 * not loopback throws {@link LeftLoopbackError}, synchronously for an IP literal, through the
 * lookup for a host name (so a name resolved by a test resolver to 127.0.0.1 is fine, and a
 * real one never connects). The global `fetch` is also checked by URL first, and can rewrite
 * origins a client hard-codes (Chat SDK's Discord uploads go to https://discord.com/api/v10
 * whatever `apiUrl` says) to a local emulator; each rewrite is counted, each refusal recorded.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction, Socket } from "node:net";

/** A connection attempt that would have left 127.0.0.1. */
export class LeftLoopbackError extends Error {
  override readonly name = "LeftLoopbackError";
}

/** The installed guard. */
export interface LoopbackGuard {
  /** Refused attempts, as `host` or `host → address`. */
  readonly refused: string[];
  /** Fetches whose origin was rewritten, per original origin. */
  readonly rewritten: Record<string, number>;
  /** Put back the original `connect` and `fetch`. */
  uninstall(): void;
}

const isLoopback = (address: string) =>
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === "::1" || /^::ffff:127\./i.test(address);

type ConnectArgs = Parameters<Socket["connect"]>;

interface ConnectOptions {
  host?: string;
  path?: string | null;
  lookup?: LookupFunction;
}

/** `Socket#connect` arguments with their options as one mutable object, in any call shape. */
function withOptions(args: unknown[]): { options: ConnectOptions; args: unknown[] } {
  const [first, second, ...rest] = args;
  if (Array.isArray(first)) return { options: (first[0] ?? {}) as ConnectOptions, args };
  if (typeof first === "object" && first !== null) return { options: first as ConnectOptions, args };
  if (typeof first === "string" && Number.isNaN(Number(first))) return { options: { path: first }, args };
  const host = typeof second === "string" ? second : undefined;
  const options = { port: Number(first), ...(host ? { host } : {}) };
  return { options, args: [options, ...(host ? rest : [second, ...rest])] };
}

/** Install the guard in this process; `rewrite` maps origins (`https://discord.com/api/v10`) to local ones. */
export function guardLoopback(rewrite: Record<string, string> = {}): LoopbackGuard {
  const refused: string[] = [];
  const rewritten: Record<string, number> = {};
  const refuse = (what: string): LeftLoopbackError => {
    refused.push(what);
    return new LeftLoopbackError(`benchmark traffic must stay on 127.0.0.1: refused a connection to ${what}`);
  };
  const originalConnect = Socket.prototype.connect;
  Socket.prototype.connect = function guardedConnect(this: Socket, ...args: unknown[]) {
    const call = withOptions(args);
    const { options } = call;
    if (!options.path) {
      const host = options.host ?? "localhost";
      if (isIP(host) !== 0 && !isLoopback(host)) throw refuse(host);
      if (isIP(host) === 0) options.lookup = checkedLookup(options.lookup, refuse);
    }
    return originalConnect.apply(this, call.args.filter((a) => a !== undefined) as ConnectArgs);
  } as Socket["connect"];

  const originalFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    let url = input instanceof Request ? input.url : String(input);
    for (const [from, to] of Object.entries(rewrite)) {
      if (!url.startsWith(from)) continue;
      rewritten[from] = (rewritten[from] ?? 0) + 1;
      url = to + url.slice(from.length);
    }
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    if (host !== "localhost" && !isLoopback(host)) return Promise.reject(refuse(host));
    return originalFetch(input instanceof Request ? new Request(url, input) : url, init);
  };
  return {
    refused,
    rewritten,
    uninstall: () => {
      Socket.prototype.connect = originalConnect;
      globalThis.fetch = originalFetch;
    },
  };
}

/** A lookup that fails unless every address it resolves to is loopback. */
function checkedLookup(inner: LookupFunction | undefined, refuse: (what: string) => Error): LookupFunction {
  const base = inner ?? (dnsLookup as unknown as LookupFunction);
  return (hostname, options, callback) =>
    base(hostname, options, (error, address: string | LookupAddress[], family?: number) => {
      if (error) return callback(error, address as string, family);
      const all = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const outside = all.find((a) => !isLoopback(a));
      if (outside !== undefined) return callback(refuse(`${hostname} → ${outside}`) as never, "", 4);
      callback(null, address as string, family);
    });
}
