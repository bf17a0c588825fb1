/**
 * The combined receipt of an agent run: each delivery's receipt added in order, its part
 * numbers shifted so that they count across the whole run.
 */
import type { DeliveryReceipt, ReceiptMessage } from "../adapter/types.js";
import { AgentRunError, type OutboxError } from "../errors/errors.js";
import { excerpt, failureEntry } from "../errors/failure-entry.js";
import type { AgentRunReceipt } from "./run-types.js";

/** Collects the deliveries of one run. */
export interface RunLedger {
  /** Add one delivery's receipt; returns its messages with their parts in the run. */
  add(receipt: DeliveryReceipt): ReceiptMessage[];
  /** Add degradations of messages already added (`part` counts in the run, as {@link RunLedger.add} returned it). */
  degrade(entries: readonly DeliveryReceipt["degraded"][number][]): void;
  /** Add a failure that is not a delivery's (the run stopped early); it gets its own part number. */
  fail(error: OutboxError): void;
  /** The combined receipt so far. */
  receipt(fields: Pick<AgentRunReceipt, "mode" | "fallback" | "end" | "previewReplaced">): AgentRunReceipt;
}

/** Start an empty ledger. */
export function createRunLedger(): RunLedger {
  let next = 0;
  const messages: AgentRunReceipt["messages"] = [];
  const failures: AgentRunReceipt["failures"] = [];
  const degraded: AgentRunReceipt["degraded"] = [];
  return {
    add(receipt) {
      const offset = next;
      const shift = <T extends { part: number }>(entry: T): T => {
        next = Math.max(next, offset + entry.part + 1);
        return { ...entry, part: offset + entry.part };
      };
      const added = receipt.messages.map(shift);
      messages.push(...added);
      failures.push(...receipt.failures.map(shift));
      degraded.push(...receipt.degraded.map(shift));
      return added;
    },
    degrade(entries) {
      degraded.push(...entries);
    },
    fail(error) {
      const text = error instanceof AgentRunError ? error.undelivered.text.trim() : "";
      failures.push(failureEntry(next++, error, text === "" ? undefined : `text "${excerpt(text)}"`));
    },
    receipt({ mode, fallback, end, previewReplaced }) {
      return {
        ok: failures.length === 0 && end === "done",
        messages: [...messages],
        failures: [...failures],
        degraded: [...degraded],
        mode,
        ...(fallback === undefined ? {} : { fallback }),
        end,
        ...(previewReplaced === undefined ? {} : { previewReplaced }),
      };
    },
  };
}
