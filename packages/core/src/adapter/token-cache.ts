/**
 * An access token kept for an adapter's own client (Teams' client credentials, Google Chat's
 * service-account JWT grant): fetched when first needed, kept until five minutes before it
 * expires (a tenth of its life for a short one), fetched again when the platform refused the
 * one handed out (`stale`), and fetched once for every caller waiting at the same time. The
 * tokens handed out are remembered so they can be kept out of messages.
 */
import { invisibleFailure } from "../engine/retry.js";
import { OutboxError } from "../errors/errors.js";
import { networkFailure } from "../errors/http-failure.js";
import type { Clock } from "./types.js";

/** A token and how long it lives, as a token endpoint answered. */
export interface IssuedToken {
  /** The access token. */
  token: string;
  /** Its life in milliseconds (`expires_in` × 1000); not finite or 0: use it once. */
  lifeMs: number;
}

/** Where an adapter's client gets its token. */
export interface TokenSource {
  /** A valid token; a new one when `stale` is the token the platform just refused. */
  get(signal?: AbortSignal, stale?: string): Promise<string>;
  /** Values to keep out of messages: the tokens handed out so far (and any secret). */
  secrets(): string[];
  /**
   * Whether `get()` would ask for a token now (none yet, or one due for renewal), so an
   * adapter can fetch it before its first paced call. An integrator's provider answers false:
   * it keeps its own cache.
   */
  needsFetch(): boolean;
}

/** Margin before expiry at which a cached token is replaced. */
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;

/** A token source over `fetchToken`, caching what it answers; `secrets` are listed first by `secrets()`. */
export function cachedTokens(
  fetchToken: (signal?: AbortSignal) => Promise<IssuedToken>,
  clock: Pick<Clock, "now">,
  secrets: readonly string[] = [],
): TokenSource {
  let cached: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;
  const seen = new Set<string>();
  const issue = async (signal?: AbortSignal): Promise<string> => {
    const { token, lifeMs } = await fetchToken(signal);
    const life = Number.isFinite(lifeMs) && lifeMs > 0 ? lifeMs : 0;
    seen.add(token);
    cached = { token, renewAt: clock.now() + life - Math.min(EXPIRY_MARGIN_MS, life / 10) };
    return token;
  };
  return {
    needsFetch: () => cached === undefined || clock.now() >= cached.renewAt,
    async get(signal, stale) {
      if (cached !== undefined && (stale === cached.token || clock.now() >= cached.renewAt))
        cached = undefined;
      if (cached !== undefined) return cached.token;
      pending ??= issue(signal).finally(() => {
        pending = undefined;
      });
      return pending;
    },
    secrets: () => [...secrets, ...seen],
  };
}

/** An integrator's own token source: asked for a token, with `refresh: true` after the platform refused the last one. */
export type TokenProvider = (options: { signal?: AbortSignal; refresh: boolean }) => Promise<string>;

/**
 * A token source over the integrator's provider. A failure that is not core's own is a
 * network-like failure of the token request (`${label} token: …`), which posted nothing.
 */
export function providedTokens(provider: TokenProvider, label: string): TokenSource {
  const seen = new Set<string>();
  return {
    async get(signal, stale) {
      let token: string;
      try {
        token = await provider({ ...(signal === undefined ? {} : { signal }), refresh: stale !== undefined });
      } catch (error) {
        throw error instanceof OutboxError
          ? error
          : invisibleFailure(networkFailure(`${label} token`, error));
      }
      seen.add(token);
      return token;
    },
    secrets: () => [...seen],
    needsFetch: () => false,
  };
}
