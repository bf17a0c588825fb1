/**
 * A delivery receipt as plain JSON (errors reduced to code and message, with what each
 * failure means and what to do) and as one line of text, for tool results.
 */
import {
  type DeliveryReceipt,
  failureToJson,
  type ReceiptFailureJson,
  type ReceiptMessage,
} from "@outbox/core";

/** {@link DeliveryReceipt} as JSON: what a tool returns in `structuredContent`. */
export interface ReceiptJson {
  /** Every part delivered. */
  ok: boolean;
  /** Delivered messages, in order. */
  messages: ReceiptMessage[];
  /** Parts not delivered: the error's stable code and message, and what to do (core's `ReceiptFailure`). */
  failures: ReceiptFailureJson[];
  /** Parts delivered in a lesser form. */
  degraded: Array<{ part: number; from: string; to: string; reason: string }>;
  /** Index signature, so the object is a valid `structuredContent`. */
  [key: string]: unknown;
}

/** The receipt as JSON. */
export function receiptToJson(receipt: DeliveryReceipt): ReceiptJson {
  return {
    ok: receipt.ok,
    messages: receipt.messages.map((m) => ({ ...m })),
    failures: receipt.failures.map(failureToJson),
    degraded: receipt.degraded.map((d) => ({ ...d })),
  };
}

/** One line: how many messages went where, and the first failure's reason and what to do when any part failed. */
export function summarizeReceipt(where: string, receipt: DeliveryReceipt): string {
  const sent = `${receipt.messages.length} message(s) delivered to ${where}`;
  const degraded = receipt.degraded.length > 0 ? `, ${receipt.degraded.length} degraded` : "";
  const [first] = receipt.failures;
  if (first === undefined) return `${sent}${degraded}.`;
  const action = first.action === undefined ? "" : ` To do: ${first.action}.`;
  return `${sent}${degraded}; ${receipt.failures.length} part(s) NOT delivered (part ${first.part}: ${first.error.message}).${action}`;
}
