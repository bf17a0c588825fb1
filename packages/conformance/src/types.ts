/**
 * Public types of the conformance suite (spec: conformance.md). The names of
 * {@link ConformanceHarness}, {@link ObservedMessage} and {@link Fault} are fixed.
 */
import type { Capabilities, ChannelAdapter, Target } from "@outbox/core";

/** The kinds of formatting an emulator decodes from what the platform stored. */
export type ObservedFormatKind = "bold" | "italic" | "strike" | "code" | "pre" | "link" | "spoiler" | "quote";

/**
 * One formatting span as a client of the platform would show it, over the message's visible
 * `text` (or `caption` for a media message). Offsets and lengths count UTF-16 code units.
 */
export type ObservedFormat = {
  /** What the span does to the text. */
  kind: ObservedFormatKind;
  /** Start of the span in the visible text (UTF-16 code units). */
  offset: number;
  /** Length of the span (UTF-16 code units). */
  length: number;
  /** Code language of a `pre` span, when the platform stored one. */
  language?: string;
  /** Target of a `link` span. */
  url?: string;
};

/** One message as the platform holds it, decoded from the emulator's recorded wire traffic. */
export type ObservedMessage = {
  /** What the platform shows. */
  kind: "text" | "image" | "animation" | "video" | "audio" | "voice" | "document" | "album";
  /** Visible text after the platform's own parsing (entities applied, markup removed). */
  text?: string;
  /** Visible caption of a media message or album, after the platform's parsing. */
  caption?: string;
  /** Formatting spans over `text` (text message) or `caption` (media message), in order of offset; absent or empty when plain. */
  formatting?: ObservedFormat[];
  /** Album members, in order. */
  items?: ObservedMessage[];
  /** Platform id of the message this one replies to. */
  replyTo?: string;
  /** Thread / topic the message was posted in. */
  thread?: string;
  /** File name the platform stored. */
  fileName?: string;
  /** MIME type the platform stored. */
  mimeType?: string;
  /** Hex sha256 of the stored bytes. */
  sha256?: string;
  /** Size of the stored bytes. */
  bytes?: number;
};

/** A misbehaviour the emulator applies to the next call(s). */
export type Fault =
  /** Answer 429 with this `retry_after`, `times` calls in a row (default 1). */
  | { kind: "rate-limit"; retryAfterMs: number; times?: number }
  /** Answer this 5xx status, `times` calls in a row (default 1). */
  | { kind: "server-error"; status: 500 | 502 | 503; times?: number }
  /** Drop the connection before a response, `times` calls in a row (default 1). */
  | { kind: "reset"; times?: number }
  /** Answer a platform 400 with this description, on the next call. */
  | { kind: "reject"; description: string };

/** One isolated adapter wired to a fresh emulator, built by {@link ConformanceHarness.setup}. */
export type ConformanceInstance = {
  /** The adapter under test. */
  adapter: ChannelAdapter;
  /** Where cases send; `thread` is used by the thread cases when set. */
  target: Target;
  /** Every message the platform holds, decoded from the emulator's recorded wire traffic, in order. */
  observe(): ObservedMessage[];
  /** Make the emulator misbehave on the next call(s). */
  inject(fault: Fault): void;
  /**
   * How many calls the emulator refused with 429 under its own enforced rate limits since
   * `setup()` (injected faults not counted). Cases that claim "no 429" read it; a harness
   * without it cannot pass those cases in strict mode.
   */
  rateLimitRefusals?(): number;
  /** Stop the emulator and release the adapter. */
  teardown(): Promise<void>;
};

/** What an adapter author hands to `describeConformance`. */
export type ConformanceHarness = {
  /** Label of the suite (usually the platform name). */
  name: string;
  /** Build a fresh adapter and emulator; called once per case. */
  setup(): Promise<ConformanceInstance>;
  /** Case id → reason; a skipped case is reported with its reason, and strict mode fails on any skip. */
  skip?: Record<string, string>;
};

/** Options of `describeConformance`. */
export type ConformanceOptions = {
  /** Fail instead of skipping when `harness.skip` names a case (CI for official adapters). */
  strict?: boolean;
  /** Run only these case ids, or groups given as a prefix ending in `.` (`text.`). */
  only?: string[];
};

/** What a case runs against: one fresh harness instance plus the adapter's capabilities. */
export type CaseContext = ConformanceInstance & {
  /** `adapter.capabilities`, for the expectations that depend on them. */
  capabilities: Capabilities;
  /** The harness's skip list (case id → reason). */
  harnessSkips: Readonly<Record<string, string>>;
};

/** One conformance case, as data: `describeConformance` wraps each in a vitest `it`. */
export type ConformanceCase = {
  /** Stable id (`text.plain`); ids never change once published. */
  id: string;
  /** What the case checks, in one sentence (the docs table is generated from it). */
  checks: string;
  /** The capability that gates the case, as written in the docs (`always`, `album`, `voice.mode=native`, …). */
  gate: string;
  /** `true` when the case applies to these capabilities, otherwise why it does not. */
  applies(capabilities: Capabilities): true | string;
  /** The capability features this case exercises (see `capabilities.covered`). */
  exercises: string[];
  /** Run the case; rejects (an assertion error) when the adapter fails it. */
  run(ctx: CaseContext): Promise<void>;
};
