/**
 * The media policy with its defaults applied.
 */
import { lookup as dnsLookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { homedir } from "node:os";
import { resolve } from "node:path";
import type { Dispatcher } from "undici";
import type { MediaPolicy } from "./types.js";

/** Default largest item: 100 MiB (adapters lower it to the platform's limit). */
export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;
/** Default whole-fetch timeout. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default number of redirects followed. */
export const DEFAULT_MAX_REDIRECTS = 3;

/** A {@link MediaPolicy} with every default filled in. */
export interface ResolvedPolicy {
  /** Absolute allowed roots. */
  localRoots: string[];
  /** Absolute base for relative paths. */
  workspaceDir: string;
  /** Home directory, for `~/`. */
  homeDir: string;
  /** Largest item in bytes. */
  maxBytes: number;
  /** Whole-fetch timeout in milliseconds. */
  timeoutMs: number;
  /** Redirects followed at most. */
  maxRedirects: number;
  /** Resolver. */
  lookup: LookupFunction;
  /** Lower-cased host names exempt from the public-address rule. */
  allowHosts: Set<string>;
  /** Dispatcher given by the caller, if any (otherwise core's own agent). */
  dispatcher: Dispatcher | undefined;
  /** Caller's cancellation. */
  signal: AbortSignal | undefined;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`MediaPolicy.${name} must be a finite number ≥ 0`);
  return value;
}

/** Applies the defaults of {@link MediaPolicy}. */
export function resolvePolicy(policy: MediaPolicy = {}): ResolvedPolicy {
  const workspaceDir = resolve(policy.workspaceDir ?? process.cwd());
  return {
    workspaceDir,
    localRoots: (policy.localRoots ?? [workspaceDir]).map((root) => resolve(workspaceDir, root)),
    homeDir: homedir(),
    maxBytes: nonNegative(policy.maxBytes, DEFAULT_MAX_BYTES, "maxBytes"),
    timeoutMs: nonNegative(policy.timeoutMs, DEFAULT_TIMEOUT_MS, "timeoutMs"),
    maxRedirects: nonNegative(policy.maxRedirects, DEFAULT_MAX_REDIRECTS, "maxRedirects"),
    lookup: policy.lookup ?? (dnsLookup as LookupFunction),
    allowHosts: new Set((policy.allowHosts ?? []).map((host) => host.toLowerCase().replace(/\.$/, ""))),
    dispatcher: policy.dispatcher,
    signal: policy.signal,
  };
}

/** Formats a byte count for messages (`52 428 800 bytes (50.0 MiB)`). */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes} bytes (${(bytes / 1024 / 1024).toFixed(1)} MiB)` : `${bytes} bytes`;
}
