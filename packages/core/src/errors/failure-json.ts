/**
 * A receipt's failure entry as plain JSON, for outputs that print or return receipts
 * (outbox-mcp's `send_message`, the CLI's `--json`): the error reduced to its stable code
 * and message, with what the entry says about the part and what to do.
 */
import type { ReceiptFailure } from "../adapter/types.js";

/** {@link ReceiptFailure} as JSON. */
export interface ReceiptFailureJson {
  /** Index of the plan part. */
  part: number;
  /** The error's stable code (`transport_error`, `media_not_found`…). */
  code: string;
  /** The error's message, redacted. */
  message: string;
  /** What the part held, redacted: a text excerpt (`text "…"`) or the media it carries. */
  content?: string;
  /** It may have been delivered anyway (a timeout or reset after sending, a 5xx): check before resending. */
  ambiguous: boolean;
  /** Resending is safe and may succeed (the same payload with the same `idempotencyKey`). */
  retryable: boolean;
  /** What to do about it, in words. */
  action?: string;
}

/** One failure entry as JSON (`ambiguous` and `retryable` false when the entry leaves them out). */
export function failureToJson(failure: ReceiptFailure): ReceiptFailureJson {
  return {
    part: failure.part,
    code: failure.error.code,
    message: failure.error.message,
    ...(failure.content === undefined ? {} : { content: failure.content }),
    ambiguous: failure.ambiguous ?? false,
    retryable: failure.retryable ?? false,
    ...(failure.action === undefined ? {} : { action: failure.action }),
  };
}
