import type { Clock, PacingOptions, RateLimit, RequestCounts, RetryPolicy } from "../adapter/types.js";
import {
  type OutboxError,
  PlatformError,
  RateLimitedError,
  StoreError,
  TransportError,
} from "../errors/errors.js";
import { callChannel, noteWait, traced, type WaitNote, waitChannel } from "../observe/channels.js";
import type { Pacer } from "./pacer.js";

/** Retry bounds with their defaults applied. */
export type ResolvedRetryPolicy = Required<RetryPolicy>;

/** Defaults: 3 retries, 60 s longest 429 wait, ambiguous failures not retried. */
export function resolveRetryPolicy(policy: RetryPolicy = {}): ResolvedRetryPolicy {
  return {
    maxRetries: policy.maxRetries ?? 3,
    maxRetryWaitMs: policy.maxRetryWaitMs ?? 60_000,
    retryAmbiguous: policy.retryAmbiguous ?? false,
  };
}

/** First wait before retrying a network failure; doubles on each retry. */
const BACKOFF_MS = 500;

/**
 * Whether the failure may have been delivered anyway: a timeout or reset after the
 * request was sent, or a 5xx answer (the platform may have stored the message).
 */
export function isAmbiguous(error: unknown): boolean {
  return (
    (error instanceof TransportError && error.ambiguous) ||
    (error instanceof PlatformError && error.status >= 500)
  );
}

/**
 * A failure of a request that cannot post anything visible (an upload reservation, the
 * upload of the bytes, in an operation whose last request posts the message): whatever
 * happened to it, resending the whole operation duplicates nothing the person sees, so an
 * ambiguous failure becomes a certain `TransportError` (retried with backoff) naming it.
 * Refusals and 429s stay as they are. An operation of several requests reports ambiguous
 * only when the request that may have posted something failed ambiguously.
 */
export function invisibleFailure(error: OutboxError): OutboxError {
  if (!isAmbiguous(error)) return error;
  return new TransportError(`${error.message} (this request posts nothing visible; safe to resend)`, {
    ambiguous: false,
    cause: error,
  });
}

/**
 * Whether `error` is an {@link invisibleFailure}: the request reached the platform (or may
 * have) and failed, but posts nothing visible. It proves nothing about reaching the platform.
 */
export function isInvisibleFailure(error: unknown): boolean {
  return error instanceof TransportError && !error.ambiguous && isAmbiguous(error.cause);
}

function retryDelay(
  error: unknown,
  retries: number,
  policy: ResolvedRetryPolicy,
  resendAmbiguous: boolean,
): number | undefined {
  if (retries >= policy.maxRetries) return undefined;
  if (error instanceof RateLimitedError)
    return error.retryAfterMs <= policy.maxRetryWaitMs ? Math.max(0, error.retryAfterMs) : undefined;
  const retryable = isAmbiguous(error)
    ? policy.retryAmbiguous || resendAmbiguous
    : error instanceof TransportError || error instanceof StoreError;
  return retryable ? BACKOFF_MS * 2 ** retries : undefined;
}

/** What {@link withRetries} needs. */
export interface RetryContext {
  /** Retry bounds. */
  policy: ResolvedRetryPolicy;
  /** Waits happen on this clock. */
  clock: Clock;
  /** Every attempt takes a token first. */
  pacer: Pacer;
  /** The target (`Target.to`), for pacing. */
  to: string;
  /** Cancels waiting. */
  signal: AbortSignal | undefined;
  /** Passed after the pacer by every attempt ({@link PacingOptions.gate}). */
  gate?: PacingOptions["gate"];
  /**
   * Awaited by every attempt after the pacer and the gate, right before the request leaves
   * (the journal's write-ahead `sending` mark). A throw fails the attempt as the call's own
   * error would; nothing was sent.
   */
  beforeCall?: () => Promise<void>;
  /**
   * The platform deduplicates this call by its operation key (`Transport.deduplicatesByKey`):
   * an ambiguous failure is resent like a certain one, since the resend cannot duplicate.
   */
  resendAmbiguous?: boolean;
  /** The plan part the call sends (handed to the gate). */
  part?: number;
  /** The kind of send, for limits that count requests per kind ({@link RateLimit.requests}); default `text`. */
  kind?: keyof RequestCounts;
  /** The traced operation the call is made for (its part's or its send's message), published as its `parent`. */
  trace?: object;
}

/**
 * Run one platform call, paced, with bounded retries: a 429 waits `retryAfterMs` (holding
 * the scope it names for concurrent sends, and slowing the pacer) when within `maxRetryWaitMs`; a network failure
 * before sending backs off 0.5 s, 1 s, 2 s…; ambiguous failures (timeouts, resets, 5xx)
 * are retried only with `retryAmbiguous`, or with `resendAmbiguous` (a platform that
 * deduplicates the call by its key). The last error is thrown as is. `onAnswer` sees the
 * answer after the pacer has it, before it is returned (no async layer of its own).
 */
export async function withRetries<T>(
  call: () => Promise<T>,
  context: RetryContext,
  onAnswer?: (answer: T, context: RetryContext) => void,
): Promise<T> {
  const { policy, clock, pacer, to, signal, gate, beforeCall } = context;
  let limited = false;
  // Checked once here: a retry comes after the check of the failure before it, and a sleep
  // ends on an abort.
  signal?.throwIfAborted();
  for (let retries = 0; ; retries += 1) {
    // A call nothing holds up takes its token at once, without a turn of the microtask queue.
    const asked = waitChannel.hasSubscribers ? clock.now() : undefined;
    const ticket = pacer.take(to, context.kind) ?? (await pacer.acquire(to, signal, limited, context.kind));
    // Only a call the pacer held is a wait worth telling (most calls pass at once).
    const waited = asked === undefined ? 0 : clock.now() - asked;
    if (waited > 0) noteCallWait(context, retries, "pacing", waited);
    // Every released call is answered to the pacer (its latency allowance), gate included.
    let answer: T;
    let gated: Awaited<ReturnType<NonNullable<typeof gate>>> | undefined;
    try {
      // Absent hooks cost no await (each is a turn of the microtask queue per call).
      if (gate !== undefined)
        gated = await gate(
          to,
          signal,
          context.part === undefined ? { attempt: retries } : { part: context.part, attempt: retries },
        );
      if (beforeCall !== undefined) await beforeCall();
      answer = await tracedCall(call, context, retries);
    } catch (error) {
      pacer.answered(ticket);
      gated?.();
      signal?.throwIfAborted();
      const delay = retryDelay(error, retries, policy, context.resendAmbiguous === true);
      if (delay === undefined) throw error;
      limited = error instanceof RateLimitedError;
      // A 429 holds its scope in the pacer; the retry waits there, first in its target's queue.
      if (error instanceof RateLimitedError) {
        noteCallWait(context, retries + 1, "retry-after", delay);
        pacer.limited(to, delay, error.scope);
      } else await clock.sleep(delay, signal);
      continue;
    }
    pacer.answered(ticket);
    gated?.();
    onAnswer?.(answer, context);
    return answer;
  }
}

// The traces' messages are made in these helpers, not in closures within withRetries: a closure
// there would keep its variables in a context object allocated per call and per attempt.

/** `call` traced as attempt `attempt` of the call `context` makes. */
function tracedCall<T>(call: () => Promise<T>, context: RetryContext, attempt: number): Promise<T> {
  return traced(
    callChannel,
    () => ({ to: context.to, part: context.part, attempt, kind: context.kind, parent: context.trace }),
    call,
  );
}

/** Tell a wait of `ms` before attempt `attempt` of the call `context` makes, when someone listens. */
function noteCallWait(context: RetryContext, attempt: number, reason: WaitNote["reason"], ms: number): void {
  noteWait(() => ({ to: context.to, part: context.part, attempt, reason, ms, parent: context.trace }));
}
