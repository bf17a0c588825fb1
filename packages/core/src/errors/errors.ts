/**
 * The one error module of Outbox. Every error has a stable `code` (messages may change,
 * codes do not) and keeps the underlying `cause`. Times are milliseconds everywhere.
 */
import { redactSecrets } from "./redact.js";

/** Stable error codes. Adding a code is minor; changing one is major. */
export type OutboxErrorCode =
  | "payload_invalid"
  | "media_blocked"
  | "media_too_large"
  | "media_not_found"
  | "media_fetch_failed"
  | "media_unsupported_type"
  | "rate_limited"
  | "auth_failed"
  | "target_not_found"
  | "platform_error"
  | "transport_error"
  | "store_failed"
  | "config_invalid"
  | "unsupported_feature"
  | "agent_run_failed";

/** Options common to every Outbox error. */
export interface OutboxErrorOptions {
  /** The underlying error (a client library's error, a system error, …). */
  cause?: unknown;
}

/**
 * An Outbox error as JSON ({@link OutboxError.toJSON}): its class name, code and message,
 * every field of its class (`method`, `status`, `description`, `ambiguous`, `retryAfterMs`,
 * `missing`, `feature`, `reason`, `ref`, `issues`, `undelivered`…), and its `cause` reduced
 * to name, code and message.
 */
export interface OutboxErrorJson {
  /** The class name (`TransportError`, `PlatformError`…). */
  name: string;
  /** The stable code. */
  code: OutboxErrorCode;
  /** The message, redacted. */
  message: string;
  /** What caused it, when anything did: its own JSON for an Outbox error, else name, code and message. */
  cause?: OutboxErrorJson | { name: string; code?: string; message: string };
  /** The fields of the error's class. */
  [field: string]: unknown;
}

/**
 * Base class of every error Outbox throws or reports in a receipt. Its message goes
 * through {@link redactSecrets} (known token shapes, URL userinfo and query strings); the
 * engine also redacts the `cause` chain and the secrets an adapter declares.
 */
export class OutboxError extends Error {
  /** Stable machine-readable code. */
  readonly code: OutboxErrorCode;

  constructor(code: OutboxErrorCode, message: string, options?: OutboxErrorOptions) {
    super(redactSecrets(message), options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }

  /**
   * The error as JSON, so `JSON.stringify(receipt)` and structured loggers keep what a plain
   * `Error` loses (its message is not an own enumerable field): name, code, message, the
   * fields of its class and its cause. Strings go through {@link redactSecrets} again, for
   * an error built outside the engine (which also removes the adapter's declared secrets).
   * The stack is left out.
   */
  toJSON(): OutboxErrorJson {
    const json: OutboxErrorJson = { name: this.name, code: this.code, message: this.message };
    for (const [key, value] of Object.entries(this))
      if (!(key in json) && value !== undefined) json[key] = redactStrings(value);
    const cause = causeJson(this.cause);
    if (cause !== undefined) json.cause = cause;
    return json;
  }
}

/** A value with every string in it (nested plain objects and arrays) redacted. */
function redactStrings(value: unknown): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactStrings);
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redactStrings(inner)]));
  return value;
}

/** A cause as JSON: an Outbox error's own, any other error's name, code and message. */
function causeJson(cause: unknown): OutboxErrorJson["cause"] {
  if (cause instanceof OutboxError) return cause.toJSON();
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  return {
    name: cause.name,
    ...(typeof code === "string" ? { code } : {}),
    message: redactSecrets(cause.message),
  };
}

/** One problem found while validating input (shape of a zod issue, kept dependency-free). */
export interface PayloadIssue {
  /** Where in the input: property names and array indexes. */
  path: ReadonlyArray<string | number>;
  /** What is wrong there. */
  message: string;
  /** The validator's issue code (zod's `code`). */
  code: string;
}

/** Invalid input, thrown before any network call. Carries the validator's issues. */
export class PayloadError extends OutboxError {
  /** Every problem found, not only the first. */
  readonly issues: readonly PayloadIssue[];

  constructor(message: string, issues: readonly PayloadIssue[] = [], options?: OutboxErrorOptions) {
    super("payload_invalid", message, options);
    this.issues = issues;
  }
}

/** Why a media reference could not be used. */
export type MediaErrorReason = "blocked" | "too-large" | "not-found" | "fetch-failed" | "unsupported-type";

const MEDIA_CODES: Record<MediaErrorReason, OutboxErrorCode> = {
  blocked: "media_blocked",
  "too-large": "media_too_large",
  "not-found": "media_not_found",
  "fetch-failed": "media_fetch_failed",
  "unsupported-type": "media_unsupported_type",
};

/** Options of a {@link MediaError}. */
export interface MediaErrorOptions extends OutboxErrorOptions {
  /** The reference as the user gave it (URL or path), when there is one. */
  ref?: string;
}

/** A media reference failed the policy, or could not be loaded. */
export class MediaError extends OutboxError {
  /** Stable reason, one per way of failing. */
  readonly reason: MediaErrorReason;
  /** The reference as given, when there is one. */
  readonly ref: string | undefined;

  constructor(reason: MediaErrorReason, message: string, options?: MediaErrorOptions) {
    super(MEDIA_CODES[reason], message, options);
    this.reason = reason;
    this.ref = options?.ref;
  }
}

/** The platform asked us to slow down, and waiting was not allowed (or did not help). */
export class RateLimitedError extends OutboxError {
  /** How long the platform asked to wait, in milliseconds. */
  readonly retryAfterMs: number;
  /** What the limit covers: the one target (a chat's `retry_after`) or every target (Discord's global limit). */
  readonly scope: "target" | "global";

  constructor(
    message: string,
    retryAfterMs: number,
    options?: OutboxErrorOptions & { scope?: "target" | "global" },
  ) {
    super("rate_limited", message, options);
    this.retryAfterMs = retryAfterMs;
    this.scope = options?.scope ?? "target";
  }
}

/** The platform refused the credentials (bad or revoked token, missing scope). */
export class AuthError extends OutboxError {
  constructor(message: string, options?: OutboxErrorOptions) {
    super("auth_failed", message, options);
  }
}

/** What could not be found: the chat, the thread, the message replied to, or the message to edit or delete. */
export type MissingTarget = "chat" | "thread" | "reply" | "message";

/** The chat, thread, replied-to message or message to edit does not exist (or the bot cannot see it). */
export class TargetNotFoundError extends OutboxError {
  /** Which part of the target is missing: the chat, the thread, the message replied to, or the message to edit or delete. */
  readonly missing: MissingTarget;

  constructor(message: string, missing: MissingTarget = "chat", options?: OutboxErrorOptions) {
    super("target_not_found", message, options);
    this.missing = missing;
  }
}

/** Details of a platform refusal. */
export interface PlatformErrorDetails extends OutboxErrorOptions {
  /** The platform method or route called (`sendPhoto`, `chat.postMessage`, …). */
  method: string;
  /** HTTP status, or the platform's error code. */
  status: number;
  /** The platform's own description of the problem. */
  description: string;
}

/** The platform understood the request and said no. */
export class PlatformError extends OutboxError {
  /** The platform method or route called. */
  readonly method: string;
  /** HTTP status, or the platform's error code. */
  readonly status: number;
  /** The platform's own description. */
  readonly description: string;

  constructor(message: string, details: PlatformErrorDetails) {
    super("platform_error", message, details);
    this.method = details.method;
    this.status = details.status;
    this.description = details.description;
  }
}

/** Options of a {@link TransportError}. */
export interface TransportErrorOptions extends OutboxErrorOptions {
  /**
   * Whether the request may have reached the platform (a timeout or reset after it was
   * sent). Ambiguous failures are not retried by default: sends are not idempotent.
   */
  ambiguous: boolean;
}

/** The network failed: connection refused or reset, timeout, a broken response. */
export class TransportError extends OutboxError {
  /** Whether the request may have been delivered anyway. */
  readonly ambiguous: boolean;

  constructor(message: string, options: TransportErrorOptions) {
    super("transport_error", message, options);
    this.ambiguous = options.ambiguous;
  }
}

/**
 * Outbox's own store could not be used, so the request was not sent: the delivery journal
 * (a part's write-ahead `sending` mark) or `@outbox/queue`'s shared rate limit in Redis. Its
 * own class and code, not a {@link TransportError}: the platform is not at fault and was
 * never called. Never ambiguous; retried with backoff like a network failure before sending.
 */
export class StoreError extends OutboxError {
  constructor(message: string, options?: OutboxErrorOptions) {
    super("store_failed", message, options);
  }
}

/** Details of a {@link ConfigError}. */
export interface ConfigErrorDetails extends OutboxErrorOptions {
  /** The config field at fault, as a path (`token`, `auth.secret`, `embedPaths[0]`); `""` for the config itself. */
  field: string;
  /** What to write instead, in words an integrator can act on (`token: process.env.OUTBOX_TELEGRAM_TOKEN`). */
  fix: string;
}

/**
 * An adapter (or the web inbox) was created with a config it cannot work with: a missing
 * token, a malformed URL, a weak secret. Thrown by the factory, before any network call;
 * the message names the field and the fix, both also kept as fields.
 */
export class ConfigError extends OutboxError {
  /** The config field at fault (`""` when the config object itself is missing). */
  readonly field: string;
  /** How to fix it. */
  readonly fix: string;

  /** `problem` says what is wrong (`is missing`); the message reads `<factory>: <field> <problem>; fix: <fix>`. */
  constructor(factory: string, problem: string, details: ConfigErrorDetails) {
    const subject = details.field === "" ? "the config" : `\`${details.field}\``;
    super("config_invalid", `${factory}: ${subject} ${problem}; fix: ${details.fix}`, details);
    this.field = details.field;
    this.fix = details.fix;
  }
}

/** The payload needs a feature the adapter does not declare, and no stated degradation applies. */
export class UnsupportedFeatureError extends OutboxError {
  /** The feature, as named in `capabilities` (`voice`, `replies`, `threads`, `album`, …). */
  readonly feature: string;

  constructor(feature: string, message: string, options?: OutboxErrorOptions) {
    super("unsupported_feature", message, options);
    this.feature = feature;
  }
}

/** Why an agent run stopped before its end (see {@link AgentRunError}). */
export type AgentRunStop = "agent-error" | "aborted";

/** What an unfinished agent run produced that was not delivered. */
export interface UndeliveredOutput {
  /** Text written after the last complete block (an unfinished paragraph), directives included. */
  text: string;
  /** Media references produced but not delivered (URL credentials and query strings redacted). */
  mediaUrls: string[];
  /** Inline media items produced but not delivered. */
  media: number;
}

/**
 * An agent run did not reach its end: the runtime reported an error, or the caller aborted.
 * Reported as a receipt failure by `deliverAgentRun`, listing what was produced and not delivered.
 */
export class AgentRunError extends OutboxError {
  /** `agent-error`: the runtime reported an error; `aborted`: the caller's signal fired. */
  readonly reason: AgentRunStop;
  /** What was produced and not delivered. */
  readonly undelivered: UndeliveredOutput;

  constructor(
    reason: AgentRunStop,
    message: string,
    undelivered: UndeliveredOutput,
    options?: OutboxErrorOptions,
  ) {
    super("agent_run_failed", message, options);
    this.reason = reason;
    this.undelivered = undelivered;
  }
}
