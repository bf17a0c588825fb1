import type { PlannedInput } from "../adapter/types.js";
import { PayloadError } from "../errors/errors.js";

const FIX = "pass what this adapter's plan(payload, target) resolved with";

/**
 * The send a plan given to `execute` is for. A plan made for another platform would deliver
 * parts planned for other limits, and a value not made by `plan` says nothing to deliver: both
 * are a {@link PayloadError} before any call. The payload, target and reply mode are checked
 * again by `send`'s own checks.
 */
export function plannedInput(planned: unknown, platform: string): PlannedInput {
  if (typeof planned !== "object" || planned === null || !("input" in planned) || !isInput(planned.input))
    throw new PayloadError(`Invalid plan: it has no input (payload, target and replyMode); ${FIX}`, [
      { path: ["planned", "input"], message: "missing or not an object", code: "custom" },
    ]);
  const made = "platform" in planned ? planned.platform : undefined;
  if (made !== platform)
    throw new PayloadError(
      `Invalid plan: it was made for ${JSON.stringify(made)}, and this adapter delivers to ${platform}; ${FIX}`,
      [{ path: ["planned", "platform"], message: `must be ${JSON.stringify(platform)}`, code: "custom" }],
    );
  return planned.input;
}

function isInput(input: unknown): input is PlannedInput {
  return typeof input === "object" && input !== null && "payload" in input && "target" in input;
}
