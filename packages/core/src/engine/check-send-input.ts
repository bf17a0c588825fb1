/**
 * The checks `send` makes on its target and options before anything else: every problem is
 * a {@link PayloadError} whose message names the field and the fix.
 */
import type { SendOptions } from "../adapter/types.js";
import { PayloadError, type PayloadIssue } from "../errors/errors.js";
import type { Target } from "../payload/types.js";

const TARGET_FIX = 'pass a target like { to: "<chat, channel or user id>" }';

type Issue = PayloadIssue & { fix: string };

/** Checks `target` and `options` of one `send`; returns the options with their default (`{}`). */
export function checkSendInput(target: unknown, options: unknown): { target: Target; options: SendOptions } {
  const issues: Issue[] = [];
  if (!isObject(target)) add(issues, ["target"], `must be an object, got ${describe(target)}`, TARGET_FIX);
  if (options !== undefined && !isObject(options))
    add(
      issues,
      ["options"],
      `must be an object or left out, got ${describe(options)}`,
      "pass {} or leave it out",
    );
  text(issues, target, "to", "target", false, TARGET_FIX);
  text(issues, target, "thread", "target", true, "give the thread or topic id, or leave it out");
  text(issues, target, "currentMessageId", "target", true, "give the inbound message id, or leave it out");
  text(
    issues,
    options,
    "idempotencyKey",
    "options",
    true,
    "give a stable key per reply, such as the turn id, or leave it out",
  );
  const replyMode = isObject(options) ? options.replyMode : undefined;
  if (replyMode !== undefined && replyMode !== "first" && replyMode !== "all" && replyMode !== "off")
    add(
      issues,
      ["options", "replyMode"],
      `must be "first", "all" or "off", got ${describe(replyMode)}`,
      "use one of them",
      "invalid_value",
    );
  const ambiguous = isObject(options) ? options.ambiguous : undefined;
  if (
    ambiguous !== undefined &&
    ambiguous !== "report" &&
    ambiguous !== "resend" &&
    ambiguous !== "delivered"
  )
    add(
      issues,
      ["options", "ambiguous"],
      `must be "report", "resend" or "delivered", got ${describe(ambiguous)}`,
      "use one of them",
      "invalid_value",
    );
  else if (ambiguous !== undefined && isObject(options) && options.idempotencyKey === undefined)
    add(
      issues,
      ["options", "ambiguous"],
      "needs an idempotencyKey: only a send's journal knows which parts are ambiguous",
      "repeat the send with the idempotencyKey of the send that left them ambiguous",
      "custom",
    );
  const memory = isObject(options) ? options.mediaMemory : undefined;
  if (
    memory !== undefined &&
    !(isObject(memory) && typeof memory.has === "function" && typeof memory.add === "function")
  )
    add(
      issues,
      ["options", "mediaMemory"],
      `must be a MediaMemory, got ${describe(memory)}`,
      "create it with createMediaMemory(), or leave it out",
    );
  if (issues.length > 0) {
    const summary = issues
      .map((issue) => `${issue.path.join(".")} ${issue.message} (${issue.fix})`)
      .join("; ");
    throw new PayloadError(
      `Invalid send: ${summary}`,
      issues.map(({ fix: _fix, ...issue }) => issue),
    );
  }
  return { target: target as Target, options: (options ?? {}) as SendOptions };
}

function add(issues: Issue[], path: string[], message: string, fix: string, code = "invalid_type"): void {
  issues.push({ path, message, code, fix });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An issue unless `owner[key]` is a non-blank string (or, when `optional`, left out). */
function text(
  issues: Issue[],
  owner: unknown,
  key: string,
  prefix: string,
  optional: boolean,
  fix: string,
): void {
  if (!isObject(owner)) return;
  const value = owner[key];
  if ((optional && value === undefined) || (typeof value === "string" && value.trim() !== "")) return;
  add(
    issues,
    [prefix, key],
    `must be a non-empty string${optional ? " when given" : ""}, got ${describe(value)}`,
    fix,
  );
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (typeof value === "string") {
    if (value === "") return "an empty string";
    return value.trim() === "" ? "a blank string" : JSON.stringify(value.slice(0, 40));
  }
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
