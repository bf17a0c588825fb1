/**
 * Public types of the conformance suite (spec: conformance.md). The names of
 * {@link ConformanceHarness}, {@link ObservedMessage} and {@link Fault} are fixed.
 */
import type {
  Capabilities,
  ChannelAdapter,
  Clock,
  Fault,
  MediaPolicy,
  ObservedMessage,
  Target,
} from "@outbox/core";

export type { Fault, FaultTarget, ObservedFormat, ObservedFormatKind, ObservedMessage } from "@outbox/core";

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
  /**
   * A message id of the platform's shape (a Telegram integer, a Slack `ts`, a Discord
   * snowflake) that names no message, for `reply.missing`. Default `"404404404"`.
   */
  unknownMessageId?: string;
  /**
   * The URLs the emulator fetched since `setup()`, in order, as the platform fetches media
   * handed to it by URL (passed through, or a media host's link). The media travel cases
   * judge by it; a harness without it cannot pass them in strict mode.
   */
  fetched?(): string[];
  /** Stop the emulator and release the adapter. */
  teardown(): Promise<void>;
};

/**
 * What a case asks of {@link ConformanceHarness.setup}: media options the harness adds to
 * its adapter's media policy (`passThrough`, a `host`), and the clock to build on.
 */
export type ConformanceSetup = {
  /** Merged into the media policy the adapter is built with. */
  media?: Pick<MediaPolicy, "passThrough" | "host">;
  /**
   * The case's virtual clock, given only to a harness that declares
   * {@link ConformanceHarness.virtualTime}: build the adapter on it (its `clock` option: pacing,
   * edit spacing, retry waits) and the emulator (the time of its rate windows, `now()`).
   */
  clock?: Clock;
};

/** What an adapter author hands to `describeConformance`. */
export type ConformanceHarness = {
  /** Label of the suite (usually the platform name). */
  name: string;
  /**
   * Build a fresh adapter and emulator; called once per case, and again by the cases that
   * need other media options (`options.media`, to merge into the adapter's media policy).
   */
  setup(options?: ConformanceSetup): Promise<ConformanceInstance>;
  /** Case id → reason; a skipped case is reported with its reason, and strict mode fails on any skip. */
  skip?: Record<string, string>;
  /**
   * `setup` builds the adapter and the emulator on the clock it is given (`options.clock`):
   * each case then runs in virtual time, its waits (edit intervals, pacing, a 429's
   * `Retry-After`) passed by moving that clock instead of waiting. Without it the suite gives
   * no clock and every wait takes real time (slower; the verdicts are the same).
   */
  virtualTime?: boolean;
  /**
   * Formatting the platform cannot show at all, each with the reason (Slack has no spoiler).
   * The cases then accept the plain words for it instead of a span; every other kind
   * (bold, italic, strike, code, pre, link) is required of every platform.
   */
  formatGaps?: FormatGaps;
  /**
   * How the platform groups what the suite's cases assume are separate messages, each with
   * the reason (see {@link Combines}). The cases that count messages then expect fewer.
   */
  combines?: Combines;
};

/** What a platform shows in one message that the cases otherwise expect as several (see {@link ConformanceHarness.combines}). */
export type Combines = {
  /**
   * Text and files go out as one message (a post with attachments): the mixed reply of
   * `receipt.order` and `receipt.ids` (text over the caption limit, then a PNG, a PDF and an
   * MP3) may arrive as one message instead of three or more.
   */
  textAndFiles?: string;
};

/** Formatting a platform cannot show, each with the reason (see {@link ConformanceHarness.formatGaps}). */
export type FormatGaps = {
  /** No spoiler (hidden until tapped) text. */
  spoiler?: string;
  /** No block quotes. */
  quote?: string;
  /** Code blocks keep no language. */
  codeLanguage?: string;
  /**
   * Links carry no label (WhatsApp): a link shows its label, then its URL in parentheses, and
   * the client links the URL (a `link` span over the URL).
   */
  linkLabel?: string;
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
  /** The harness's {@link ConformanceHarness.formatGaps} (`{}` when none). */
  formatGaps: Readonly<FormatGaps>;
  /** The harness's {@link ConformanceHarness.combines} (`{}` when none). */
  combines: Readonly<Combines>;
  /** Run in strict mode: an observation the harness cannot make fails instead of skipping. */
  strict: boolean;
  /**
   * The clock the adapter and emulator run on: the case's virtual clock under
   * {@link ConformanceHarness.virtualTime}, else the real one. A case waits on it (a model's
   * writing pace) and measures waits with it.
   */
  clock: Clock;
  /** Another fresh instance built with `options` (torn down with the case), for cases that need other media options. */
  setupWith(options: ConformanceSetup): Promise<ConformanceInstance>;
};

/** What a case assumes, said in its failure messages and in docs/conformance.md. */
export type CaseAssumptions = {
  /** The reply the case sends, in words (`a PNG from a local file, no text`). */
  sends: string;
  /**
   * What a platform that differs from what the case expects declares, and where (a
   * capability, a harness field); absent when nothing can be declared: every adapter must
   * pass the case as it is.
   */
  differs?: string;
};

/** A case as a case file writes it; the registry adds its {@link CaseAssumptions}. */
export type CaseDefinition = Omit<ConformanceCase, keyof CaseAssumptions>;

/** One conformance case, as data: `describeConformance` wraps each in a vitest `it`. */
export type ConformanceCase = CaseAssumptions & {
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
