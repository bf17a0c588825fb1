/**
 * Attribute names and values Outbox records. OpenTelemetry's semantic conventions name the
 * messaging ones (the queue) and `error.type`; the rest are Outbox's own, under `outbox.`.
 * Nothing here carries message text, media, a token or a URL: the chat's id is recorded as a
 * keyed hash, stable within one process's key (docs/operations.md, "What is never recorded").
 */
import { createHmac, randomBytes } from "node:crypto";
import { isAmbiguous, OutboxError } from "@outbox/core";

/** Outbox's attribute names. */
export const ATTR = {
  platform: "outbox.platform",
  target: "outbox.target.hash",
  part: "outbox.part.index",
  partType: "outbox.part.type",
  attempt: "outbox.attempt",
  kind: "outbox.call.kind",
  outcome: "outbox.outcome",
  waitMs: "outbox.wait.ms",
  delivered: "outbox.parts.delivered",
  failed: "outbox.parts.failed",
  ambiguous: "outbox.parts.ambiguous",
  job: "outbox.job.hash",
  previousAttempts: "outbox.job.previous_attempts",
  jobStatus: "outbox.job.status",
  /** Semantic conventions: the class of error (here the Outbox error code). */
  errorType: "error.type",
  /** Semantic conventions (HTTP client): the status the platform answered, when it answered one. */
  httpStatus: "http.response.status_code",
  /** Semantic conventions (messaging). */
  messagingSystem: "messaging.system",
  messagingOperationType: "messaging.operation.type",
  messagingOperationName: "messaging.operation.name",
  messagingDestination: "messaging.destination.name",
} as const;

/** How a part or a call ended. */
export type Outcome = "delivered" | "failed" | "ambiguous";

/** The outcome of a failure (`undefined`: it succeeded). */
export function outcomeOf(error: unknown): Outcome {
  if (error === undefined) return "delivered";
  return isAmbiguous(error) ? "ambiguous" : "failed";
}

/** The error's class for `error.type`: an Outbox error's code, else its name. */
export function errorType(error: unknown): string {
  if (error instanceof OutboxError) return error.code;
  if (error instanceof Error) return error.name;
  return "unknown";
}

/** The HTTP status a platform answered with, when the error says (a 429, a 5xx, a 4xx refusal). */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof OutboxError && error.code === "rate_limited") return 429;
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === "number" && status >= 100 && status < 600 ? status : undefined;
}

/**
 * Hashes ids (chat ids, job keys) with a key: the same id gives the same hash under one key,
 * so a chat's spans can be found together, and an id cannot be read back or guessed from a
 * list of ids without the key.
 */
export function createHasher(key: string | undefined): (id: string) => string {
  const secret = key ?? randomBytes(32).toString("hex");
  const cache = new Map<string, string>();
  return (id) => {
    let hash = cache.get(id);
    if (hash === undefined) {
      hash = createHmac("sha256", secret).update(id).digest("hex").slice(0, 16);
      // Bounded: a process serving many chats keeps only the latest thousand.
      if (cache.size >= 1000) cache.clear();
      cache.set(id, hash);
    }
    return hash;
  };
}
