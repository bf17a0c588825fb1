/**
 * Cancellation for one fetch: the caller's AbortSignal plus a timer, with errors that say
 * which of the two fired.
 */
import { MediaError } from "../../errors/errors.js";
import type { ResolvedPolicy } from "../policy.js";

/** A cancellable deadline. */
export interface Deadline {
  /** Aborts when the caller cancels or the time is up. */
  signal: AbortSignal;
  /** Stops the timer (the caller's signal still applies). */
  clearTimer(): void;
  /** Stops the timer and stops following the caller's signal. */
  dispose(): void;
}

/**
 * Starts a deadline of `policy.timeoutMs` that also follows `policy.signal`. `ref` is the
 * reference as given, `label` how messages show it.
 */
export function startDeadline(ref: string, label: string, policy: ResolvedPolicy): Deadline {
  const controller = new AbortController();
  const onCancel = () =>
    controller.abort(new MediaError("fetch-failed", `Loading media ${label} was cancelled.`, { ref }));
  if (policy.signal?.aborted) onCancel();
  policy.signal?.addEventListener("abort", onCancel, { once: true });
  const timer = setTimeout(
    () =>
      controller.abort(
        new MediaError("fetch-failed", `Loading media ${label} timed out after ${policy.timeoutMs} ms.`, {
          ref,
        }),
      ),
    policy.timeoutMs,
  );
  return {
    signal: controller.signal,
    clearTimer: () => clearTimeout(timer),
    dispose: () => {
      clearTimeout(timer);
      policy.signal?.removeEventListener("abort", onCancel);
    },
  };
}

/**
 * Maps any failure during a fetch to a `MediaError`: the deadline's own error when it
 * fired, a `MediaError` as is, anything else as `fetch-failed`.
 */
export function asMediaError(ref: string, label: string, error: unknown, signal: AbortSignal): MediaError {
  if (signal.aborted && signal.reason instanceof MediaError) return signal.reason;
  if (error instanceof MediaError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  return new MediaError(
    "fetch-failed",
    `Fetching media ${label} failed: ${detail}${typeof code === "string" ? ` (${code})` : ""}.`,
    { ref, cause: error },
  );
}
