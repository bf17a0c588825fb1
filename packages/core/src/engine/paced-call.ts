import type { SentMessage } from "../adapter/types.js";
import { type RetryContext, withRetries } from "./retry.js";

/**
 * One platform call that answers with a message (a send or an edit), paced and retried.
 * A platform that says the target's budget is spent (`rateLimit.remaining` 0) holds that
 * target until its reset, whichever kind of call it said so on.
 */
export function pacedCall(call: () => Promise<SentMessage>, retry: RetryContext): Promise<SentMessage> {
  return withRetries(call, retry, pauseWhenSpent);
}

function pauseWhenSpent(sent: SentMessage, retry: RetryContext): void {
  if (sent.rateLimit !== undefined && sent.rateLimit.remaining <= 0)
    retry.pacer.pause(retry.to, sent.rateLimit.resetAfterMs);
}
