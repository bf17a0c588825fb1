/**
 * Checks the options of `deliverAgentRun` and fills in defaults; bad values throw a
 * `PayloadError` naming the field, before any event is read.
 */
import { PayloadError } from "../errors/errors.js";
import { excerpt } from "../errors/failure-entry.js";
import type { Target } from "../payload/types.js";
import type { BlockSizes } from "./block-splitter.js";
import type { DeliverAgentRunOptions, StreamMode } from "./run-types.js";

/** Options with defaults applied. */
export interface RunSettings {
  /** The mode asked for. */
  mode: StreamMode;
  /** Mode used when preview is impossible. */
  previewFallback: "blocks" | "final";
  /** Block sizes of `blocks` mode. */
  sizes: BlockSizes;
  /** Idle flush delay; 0 is off. */
  idleMs: number;
  /** Least time between preview edits, when set. */
  previewIntervalMs: number | undefined;
  /** Tool text is untrusted. */
  untrusted: boolean;
}

const MODES: readonly StreamMode[] = ["final", "blocks", "preview"];

/** Every option's name: any other is refused, since a misspelt option would otherwise be ignored. */
const OPTION_NAMES: Record<keyof DeliverAgentRunOptions, true> = {
  mode: true,
  previewFallback: true,
  minChars: true,
  maxChars: true,
  idleMs: true,
  clock: true,
  previewIntervalMs: true,
  untrusted: true,
  idempotencyKey: true,
  workspaceDir: true,
  replyToId: true,
  replyToCurrent: true,
  replyMode: true,
  signal: true,
};

/** Validate `options`; throws `PayloadError` listing every bad field. */
export function checkRunOptions(options: DeliverAgentRunOptions, target: Target): RunSettings {
  const issues: Array<{ path: string[]; message: string; code: string }> = [];
  const bad = (field: string, message: string): void => {
    issues.push({ path: [field], message, code: "custom" });
  };
  for (const name of Object.keys(options))
    if (!Object.hasOwn(OPTION_NAMES, name))
      bad(
        excerpt(name),
        `is not an option of deliverAgentRun (they are ${Object.keys(OPTION_NAMES).join(", ")})`,
      );
  const mode = options.mode ?? "final";
  if (!MODES.includes(mode)) bad("mode", `must be one of ${MODES.join(", ")}`);
  const previewFallback = options.previewFallback ?? "blocks";
  if (previewFallback !== "blocks" && previewFallback !== "final")
    bad("previewFallback", "must be blocks or final");
  const count = (
    field: keyof DeliverAgentRunOptions,
    value: number | undefined,
    fallback: number,
  ): number => {
    const chosen = value ?? fallback;
    if (!Number.isFinite(chosen) || chosen < 0) bad(field, "must be a finite number, 0 or more");
    return chosen;
  };
  const minChars = count("minChars", options.minChars, 200);
  const maxChars = count("maxChars", options.maxChars, Math.max(1500, minChars));
  if (maxChars < 1 || maxChars < minChars) bad("maxChars", "must be at least 1 and at least minChars");
  const idleMs = count("idleMs", options.idleMs, 1000);
  const previewIntervalMs =
    options.previewIntervalMs === undefined
      ? undefined
      : count("previewIntervalMs", options.previewIntervalMs, 0);
  const { replyMode, replyToId, replyToCurrent } = options;
  if (replyMode !== undefined && replyMode !== "first" && replyMode !== "all" && replyMode !== "off")
    bad("replyMode", "must be first, all or off");
  if (
    replyToId !== undefined &&
    replyToId !== null &&
    (typeof replyToId !== "string" || replyToId.trim() === "")
  )
    bad("replyToId", "must be a message id, or null for no reply");
  if (replyToCurrent === true && replyToId !== undefined)
    bad("replyToCurrent", "cannot be set with replyToId; choose one");
  else if (replyToCurrent === true && target.currentMessageId === undefined)
    bad("replyToCurrent", "needs target.currentMessageId (the inbound message to reply to)");
  if (options.idempotencyKey !== undefined && options.idempotencyKey.trim() === "")
    bad("idempotencyKey", "must not be blank; leave it out for no once-only delivery");
  if (issues.length > 0)
    throw new PayloadError(
      `invalid deliverAgentRun options: ${issues.map((issue) => `${issue.path[0]} ${issue.message}`).join("; ")}`,
      issues,
    );
  return {
    mode,
    previewFallback,
    sizes: { minChars, maxChars },
    idleMs,
    previewIntervalMs,
    untrusted: options.untrusted === true,
  };
}
