/**
 * Options, progress and receipt of {@link deliverAgentRun} (spec: docs/streaming.md).
 */
import type { Clock, DeliveryReceipt, PreviewOptions, SendOptions } from "../adapter/types.js";

/** How a run's reply reaches the channel. */
export type StreamMode =
  /** One delivery at `done`. */
  | "final"
  /** Each completed block as the agent writes it. */
  | "blocks"
  /** One message edited while the agent writes, settled into the final reply (`adapter.preview`). */
  | "preview";

/** Options of {@link deliverAgentRun}. */
export interface DeliverAgentRunOptions {
  /** Delivery mode. Default `final`. */
  mode?: StreamMode;
  /** Mode used when `mode` is `preview` and the adapter has no `preview` (no edits). Default `blocks`. */
  previewFallback?: "blocks" | "final";
  /** `blocks` mode: a block is not cut before this many characters. Default 200. */
  minChars?: number;
  /** `blocks` mode: preferred largest block in characters. Default 1500. */
  maxChars?: number;
  /**
   * `blocks` mode: with no new event for this long, complete lines held back are delivered
   * (they would otherwise wait for `minChars`). Default 1000; 0 turns the idle flush off.
   */
  idleMs?: number;
  /** Time source of the idle flush. Default the real clock. */
  clock?: Clock;
  /** `preview` mode: least time between two edits (never below the platform's). */
  previewIntervalMs?: PreviewOptions["intervalMs"];
  /**
   * Text from tools is untrusted: `MEDIA:` lines in tool-result text are neutralized (inert)
   * instead of counting as tool media. Structured tool media (`media`) still counts.
   */
  untrusted?: boolean;
  /**
   * Makes the run's deliveries once-only: each delivery gets a key derived from this one
   * (`<key>:block:<n>`, `<key>:media:<n>`, `<key>:final`), so replaying the same run
   * delivers only what did not go. Keys stay equal only when the run is replayed with the same
   * events and block boundaries (set `idleMs: 0`).
   */
  idempotencyKey?: string;
  /** Base for relative paths when comparing media (media identity). Default `process.cwd()`. */
  workspaceDir?: string;
  /**
   * The run replies to this message (`null`: to none), whatever tags the agent writes.
   * Without it (and without `replyToCurrent`) the run follows the agent's reply tags; see
   * docs/streaming.md, "Replies".
   */
  replyToId?: string | null;
  /** The run replies to `target.currentMessageId` (which must then be set), whatever tags the agent writes. */
  replyToCurrent?: boolean;
  /**
   * Which of the run's messages carry the reply: `first` (default) the run's first message,
   * `all` every one, `off` none (tags ignored). On a platform whose replies are threads
   * (Slack) every message does unless `off`, so the run stays in one thread.
   */
  replyMode?: SendOptions["replyMode"];
  /** Stops the run cleanly: no event is read and nothing is sent after it fires. */
  signal?: AbortSignal;
}

/** What one delivery of a run was. */
export type RunStepKind = "block" | "media" | "final";

/** A progress item of a run, in order. */
export type AgentRunProgress =
  /** A delivery finished (ok or not); `receipt` is that delivery's own receipt. */
  | {
      /** Discriminator. */
      type: "delivered";
      /** What was delivered. */
      step: RunStepKind;
      /** The delivery's receipt; its `part` numbers are its own (the combined receipt renumbers). */
      receipt: DeliveryReceipt;
    }
  /** `preview` mode: the preview message was started. */
  | {
      /** Discriminator. */
      type: "preview-started";
    }
  /**
   * `preview` mode: the settled reply could not become the preview message (it opens with
   * media, replies elsewhere, or the edit failed): the preview was deleted (`deleted`) or
   * keeps its last text (`left`), and the reply went as new messages. The run's receipt
   * says the same in `previewReplaced`.
   */
  | {
      /** Discriminator. */
      type: "preview-replaced";
      /** What became of the preview message. */
      preview: "deleted" | "left";
      /** Why, in words. */
      reason: string;
    }
  /** `preview` was asked for and the adapter cannot edit: the run uses `to` instead. */
  | {
      /** Discriminator. */
      type: "fallback";
      /** The mode asked for. */
      from: "preview";
      /** The mode used. */
      to: "blocks" | "final";
      /** Why. */
      reason: string;
    }
  /** A tool finished; its text, neutralized when the run is `untrusted`, for integrators that show it. */
  | {
      /** Discriminator. */
      type: "tool-result";
      /** Tool name, when the runtime gave one. */
      toolName?: string;
      /** The tool's text (neutralized in untrusted runs), when it had some. */
      text?: string;
    }
  /** The run ended; `receipt` is the combined receipt (also `AgentRunDelivery.receipt`). */
  | {
      /** Discriminator. */
      type: "done";
      /** The combined receipt. */
      receipt: AgentRunReceipt;
    };

/** The combined receipt of a run: every delivery's messages, failures and degradations, renumbered. */
export interface AgentRunReceipt {
  /** Every delivery succeeded and the run reached its end. */
  ok: boolean;
  /** Delivered messages in order; `part` counts across the whole run. */
  messages: DeliveryReceipt["messages"];
  /** What was not delivered: failed parts, plus an `AgentRunError` when the run stopped early. */
  failures: DeliveryReceipt["failures"];
  /** Parts delivered in a lesser form. */
  degraded: DeliveryReceipt["degraded"];
  /** The mode the run used (after a preview fallback). */
  mode: StreamMode;
  /** Set when `preview` fell back to another mode. */
  fallback?: {
    /** The mode asked for. */
    from: "preview";
    /** The mode used. */
    to: "blocks" | "final";
    /** Why. */
    reason: string;
  };
  /** How the run ended: `done` (its end, or the events ran out), `error` (the runtime failed) or `aborted`. */
  end: "done" | "error" | "aborted";
  /**
   * `preview` mode: the settled reply did not become the preview message (it opens with
   * media, replies to a message the preview does not, or the edit failed); the preview was
   * `deleted` or `left` with its last text.
   */
  previewReplaced?: { preview: "deleted" | "left"; reason: string };
}

/** A run being delivered: iterate it for progress; await `receipt` for the combined receipt. */
export interface AgentRunDelivery extends AsyncIterable<AgentRunProgress> {
  /** Resolves when the run ended and every delivery finished; never rejects for a delivery failure. */
  readonly receipt: Promise<AgentRunReceipt>;
}
