import type {
  AdapterDefinition,
  Capabilities,
  ChannelAdapter,
  Clock,
  DeliveryJournal,
  DeliveryReceipt,
  ExecuteOptions,
  PacingOptions,
  PlannedDelivery,
  PlanOptions,
  Renderer,
  SendOptions,
} from "../adapter/types.js";
import { OutboxError, PayloadError, UnsupportedFeatureError } from "../errors/errors.js";
import { redactError, redactSecrets } from "../errors/redact.js";
import { replyTree } from "../markdown/parse-reply-markdown.js";
import { type SendTrace, sendChannel, traced } from "../observe/channels.js";
import { normalizePayload } from "../parse/index.js";
import type { ParseOptions, ReplyPayload, ReplyPayloadInput, Target } from "../payload/types.js";
import { planDelivery } from "../plan/build-plan.js";
import type { ExecutionPlan } from "../plan/message-parts.js";
import type { Degradation, DeliveryPlan, MediaInput, PartDegradation } from "../plan/types.js";
import { validateCapabilities } from "./capabilities.js";
import { checkSendInput } from "./check-send-input.js";
import { systemClock } from "./clock.js";
import { describeMediaInputs } from "./describe-media.js";
import { describePlan } from "./describe-plan.js";
import { distinctMedia } from "./distinct-media.js";
import { fingerprint } from "./fingerprint.js";
import { JOURNAL_VERSION, resumableJournal } from "./journal-version.js";
import { holdsMedia, loadMediaInputs } from "./load-media-inputs.js";
import { createMemoryStore } from "./memory-store.js";
import { randomSendKey } from "./operation-key.js";
import { createPacer } from "./pacer.js";
import { plannedInput } from "./planned-input.js";
import { resolveRetryPolicy } from "./retry.js";
import { journalSaver, NO_CURRENT, NO_REPLY, type RunContext, receiptOf, runPlan } from "./run-plan.js";

/** A send whose input is checked: what `send` and a live preview's settle plan from. */
export interface CheckedSend {
  /** The normalized payload. */
  payload: ReplyPayload;
  /** The checked target. */
  target: Target;
  /** The checked options. */
  options: SendOptions;
}

/** A checked send, its journal read and its plan made with its media loaded: ready to execute. */
export interface PreparedSend extends CheckedSend {
  /** The journal of its `idempotencyKey` as read (empty without a key, or a first send). */
  journal: DeliveryJournal;
  /** The plan; absent when the journal holds every part delivered (nothing to load or send). */
  plan: DeliveryPlan | undefined;
  /** The message the plan's first operation replies to, when the platform has replies. */
  replyTo: string | undefined;
  /** Why a reply the payload asks for is not made (noted on the first part delivered), if so. */
  replyDropped: Degradation | undefined;
  /** Adds this send's media to the caller's media memory (once something was delivered). */
  remember(): void;
}

/** Options of {@link DeliveryEngine.run}. */
export interface RunOptions {
  /** The message the plan's first operation replies to. */
  replyTo?: string;
  /** Cancels the calls and their waits. */
  signal?: AbortSignal;
  /** Ends an edit's wait for its spacing, not a call in flight ({@link PartContext.stopWaiting}). */
  stopWaiting?: AbortSignal;
}

/**
 * The delivery engine behind an adapter: `send` is {@link check}, then {@link prepare} and
 * {@link execute} within {@link exclusive}. A live preview is built on these alone: its
 * updates are one-part plans given to {@link run}, its settle a plan given to `execute`.
 * Every method redacts the errors it throws.
 */
export interface DeliveryEngine {
  /** The adapter without a live preview (`send`, `plan`, `close`). */
  adapter: ChannelAdapter;
  /** The validated, frozen capabilities. */
  capabilities: Capabilities;
  /** The platform renderer. */
  renderer: Renderer;
  /** The adapter's clock (pacing and retry waits). */
  clock: Clock;
  /** Whether the transport can delete a message. */
  deletes: boolean;
  /** The target checked as `send` checks it (a thread on a platform without threads is refused). */
  checkTarget(target: Target): Target;
  /** The input checked and normalized as `send` does, before any network call. */
  check(
    input: ReplyPayloadInput | ReplyPayload,
    target: Target,
    options: SendOptions | undefined,
  ): CheckedSend;
  /** Run `work` after every earlier one with the same `idempotencyKey` (none: at once). */
  exclusive<T>(key: string | undefined, work: () => Promise<T>): Promise<T>;
  /** Read the journal, load the media and plan, as `send` does before its first call. */
  prepare(checked: CheckedSend): Promise<PreparedSend>;
  /**
   * Execute `plan` (default: the prepared one) as that send, with its journal. `prior` are
   * degradations already made before the plan runs (what became of a live preview): they are
   * in the receipt whatever becomes of the parts.
   */
  execute(prepared: PreparedSend, plan?: ExecutionPlan, prior?: PartDegradation[]): Promise<DeliveryReceipt>;
  /**
   * Execute a plan of calls outside any send (a live preview's own message): paced and
   * retried like a send, with no journal, no operation key, and no part told to the gate.
   */
  run(plan: ExecutionPlan, target: Target, options?: RunOptions): Promise<DeliveryReceipt>;
  /** An error as thrown to callers: an Outbox error redacted of the adapter's secrets. */
  redacted(error: unknown): unknown;
}

/**
 * Build the delivery engine of a platform from its capabilities, renderer and transport.
 * `send` normalizes the payload (a `PayloadError` is thrown before any network call), loads
 * the media under the policy, plans (delivery.md) and executes the plan through the
 * transport with pacing, bounded retries and, with an `idempotencyKey`, once-only
 * delivery. The capabilities are validated and frozen; one pacer serves every call. `plan`
 * runs the same checks and plan as `send` with no network call or file read (docs/delivery.md,
 * "Planning without sending").
 */
export function createDeliveryEngine(definition: AdapterDefinition): DeliveryEngine {
  const capabilities = validateCapabilities(definition.capabilities);
  const { renderer, transport } = definition;
  if (capabilities.album !== null && transport.sendAlbum === undefined)
    throw new TypeError(
      `Adapter ${definition.name}: capabilities.album is set but the transport has no sendAlbum`,
    );
  if (capabilities.edits != null && transport.editText === undefined)
    throw new TypeError(
      `Adapter ${definition.name}: capabilities.edits is set but the transport has no editText`,
    );
  const clock = definition.clock ?? systemClock;
  const store = definition.store ?? createMemoryStore();
  const { pacing } = definition;
  const pacer = createPacer(capabilities.rateLimits, clock, pacing);
  const policy = resolveRetryPolicy(definition.retry);
  // The gate is told the options it came with (its margin and latency allowance).
  const shared = pacing?.gate;
  const gate: PacingOptions["gate"] =
    shared === undefined ? undefined : (to, signal, call) => shared(to, signal, call, pacing);
  const editIntervalMs = capabilities.edits?.minIntervalMs ?? 0;
  const locks = new Map<string, Promise<unknown>>();
  const secrets = [...(definition.secrets ?? [])];
  const parseOptions: ParseOptions = { markdownImages: capabilities.markdownImages };
  if (definition.media?.workspaceDir !== undefined) parseOptions.workspaceDir = definition.media.workspaceDir;

  const travel = {
    passThrough: definition.media?.passThrough === true,
    host: definition.media?.host !== undefined,
  };
  const planOf = (payload: ReplyPayload, media: MediaInput[]) =>
    planDelivery(
      { tree: replyTree(payload.text), media, audioAsVoice: payload.audioAsVoice, travel },
      capabilities,
      renderer,
    );

  // Text alone without a key (most replies) has no journal to read and no media to load or
  // compare: it is prepared without an await (each is an async layer a short send pays for).
  const prepare = (checked: CheckedSend): PreparedSend | Promise<PreparedSend> =>
    checked.options.idempotencyKey === undefined && !holdsMedia(checked.payload)
      ? preparedOf(checked, freshJournal(""), TEXT_ONLY)
      : prepareStored(checked);

  const prepareStored = async (checked: CheckedSend): Promise<PreparedSend> => {
    const { payload, target, options } = checked;
    const key = options.idempotencyKey;
    const print = key === undefined ? "" : fingerprint(payload, target, options.replyMode ?? "first");
    const stored = key === undefined ? undefined : await store.get(key);
    const journal: DeliveryJournal =
      key !== undefined && stored !== undefined ? resumableJournal(stored, key) : freshJournal(print);
    if (journal.fingerprint !== print)
      throw new PayloadError(
        `idempotencyKey ${JSON.stringify(key)} was used for a different payload or target`,
        [{ path: ["idempotencyKey"], message: "reused with a different payload or target", code: "custom" }],
      );
    const done =
      journal.partCount !== undefined && coversEveryPart(journal.deliveredParts, journal.partCount);
    const distinct = done
      ? undefined
      : holdsMedia(payload)
        ? await distinctMedia(
            await loadMediaInputs(payload, capabilities, definition.media, options.signal),
            payload,
            options.mediaMemory,
          )
        : TEXT_ONLY;
    return preparedOf(checked, journal, distinct);
  };

  // `distinct`: the media kept, absent when the journal holds every part delivered. The reply's
  // fields are copied one by one, with no spread of an object made for the purpose.
  const preparedOf = (
    { payload, target, options }: CheckedSend,
    journal: DeliveryJournal,
    distinct: { inputs: MediaInput[]; remember: () => void } | undefined,
  ): PreparedSend => {
    const reply = replyOf(payload, target, options.replyMode ?? "first", capabilities);
    return {
      payload,
      target,
      options,
      journal,
      plan: distinct === undefined ? undefined : planOf(payload, distinct.inputs),
      replyTo: reply.replyTo,
      replyDropped: reply.replyDropped,
      remember: distinct === undefined ? nothing : distinct.remember,
    };
  };

  // `trace`: the send's message when it is traced, the parent its parts are published with.
  // Not an async function: a send with no prior degradations goes to `runPlan` without a layer.
  const execute = (
    prepared: PreparedSend,
    plan: ExecutionPlan | undefined = prepared.plan,
    prior: PartDegradation[] = [],
    trace?: SendTrace,
  ): Promise<DeliveryReceipt> => {
    if (plan === undefined) return Promise.resolve(receiptOf(prepared.journal, []));
    const key = prepared.options.idempotencyKey;
    const save = key === undefined ? undefined : journalSaver(store, key);
    if (prior.length === 0) return executePlan(prepared, plan, prepared.journal, key, save, trace);
    const entries = prior.map((entry) => ({ ...entry, reason: redactSecrets(entry.reason, secrets) }));
    const journal = { ...prepared.journal, degraded: [...prepared.journal.degraded, ...entries] };
    return Promise.resolve(save?.(journal)).then(() =>
      executePlan(prepared, plan, journal, key, save, trace),
    );
  };

  // `key`: the send's idempotencyKey, `save` its journal's saver (both absent without one).
  const executePlan = (
    prepared: PreparedSend,
    plan: ExecutionPlan,
    journal: DeliveryJournal,
    key: string | undefined,
    save: RunContext["save"],
    trace: SendTrace | undefined,
  ): Promise<DeliveryReceipt> => {
    const { target, options } = prepared;
    const receipt = runPlan(plan, {
      transport,
      target,
      retry: { policy, clock, pacer, to: target.to, signal: options.signal, gate, trace },
      replyTo: prepared.replyTo,
      replyMode: options.replyMode ?? "first",
      replyDropped: prepared.replyDropped,
      sendKey: key ?? randomSendKey(),
      ...(definition.media?.host === undefined ? {} : { travel: { host: definition.media.host, renderer } }),
      editIntervalMs,
      journal,
      save,
      writeAhead: store.writeAhead === true,
      ambiguous: options.ambiguous ?? (policy.retryAmbiguous ? "resend" : "report"),
      secrets,
    });
    if (prepared.remember === nothing) return receipt;
    return receipt.then((done) => {
      if (done.ok || done.messages.length > 0) prepared.remember();
      return done;
    });
  };

  const run = (plan: ExecutionPlan, target: Target, options: RunOptions = {}): Promise<DeliveryReceipt> =>
    runPlan(plan, {
      transport,
      target,
      retry: { policy, clock, pacer, to: target.to, signal: options.signal, gate },
      replyTo: options.replyTo,
      replyMode: "first",
      replyDropped: undefined,
      sendKey: "",
      partless: true,
      editIntervalMs,
      ...(options.stopWaiting === undefined ? {} : { stopWaiting: options.stopWaiting }),
      journal: { fingerprint: "", messages: [], degraded: [], deliveredParts: [] },
      save: undefined,
      ambiguous: "report",
      secrets,
    });

  const exclusive = async <T>(key: string | undefined, work: () => Promise<T>): Promise<T> => {
    if (key === undefined) return work();
    const previous = locks.get(key) ?? Promise.resolve();
    const turn = previous.catch(() => undefined).then(work);
    locks.set(key, turn);
    try {
      return await turn;
    } finally {
      if (locks.get(key) === turn) locks.delete(key);
    }
  };

  const checkTarget = (rawTarget: Target, rawOptions: SendOptions | undefined) => {
    const checked = checkSendInput(rawTarget, rawOptions);
    const { thread } = checked.target;
    if (thread !== undefined && !capabilities.threads)
      throw new UnsupportedFeatureError(
        "threads",
        `${definition.name} has no threads; refusing to post outside thread ${thread}`,
      );
    return checked;
  };

  // What `send` and `plan` check first: the target and options, then the payload.
  const check = (
    input: ReplyPayloadInput | ReplyPayload,
    rawTarget: Target,
    rawOptions: SendOptions | undefined,
  ): CheckedSend => {
    const { target, options } = checkTarget(rawTarget, rawOptions);
    const payload = normalizePayload(
      input,
      target.currentMessageId === undefined
        ? parseOptions
        : { ...parseOptions, currentMessageId: target.currentMessageId },
    );
    return { payload, target, options };
  };

  // Thrown errors are redacted like receipt entries; a caller's own abort reason is theirs.
  const redacted = (error: unknown): unknown =>
    error instanceof OutboxError ? redactError(error, secrets) : error;
  const guarded =
    <A extends unknown[], R>(work: (...args: A) => R | Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await work(...args);
      } catch (error) {
        throw redacted(error);
      }
    };

  // Not an async function, nor composed from `guarded` and `exclusive`: each async layer costs
  // a short send about a microsecond and its frame's bytes, for as long as the send waits.
  const send = (
    input: ReplyPayloadInput | ReplyPayload,
    target: Target,
    options?: SendOptions,
    trace?: SendTrace,
  ): Promise<DeliveryReceipt> => {
    let receipt: Promise<DeliveryReceipt>;
    try {
      const checked = check(input, target, options);
      const key = checked.options.idempotencyKey;
      if (key === undefined) {
        const prepared = prepare(checked);
        receipt =
          prepared instanceof Promise
            ? prepared.then((ready) => execute(ready, undefined, undefined, trace))
            : execute(prepared, undefined, undefined, trace);
      } else
        receipt = exclusive(key, async () => execute(await prepare(checked), undefined, undefined, trace));
    } catch (error) {
      return Promise.reject(redacted(error));
    }
    return receipt.catch(throwRedacted);
  };
  const throwRedacted = (error: unknown): never => {
    throw redacted(error);
  };

  const plan = guarded(
    async (
      input: ReplyPayloadInput | ReplyPayload,
      rawTarget: Target,
      rawOptions?: PlanOptions,
    ): Promise<PlannedDelivery> => {
      const { payload, target, options } = check(input, rawTarget, rawOptions);
      const { inputs, unloaded } = await describeMediaInputs(payload, capabilities, definition.media);
      const { inputs: media } = await distinctMedia(inputs, payload, options.mediaMemory);
      const replyMode = options.replyMode ?? "first";
      return describePlan(planOf(payload, media), {
        ...replyOf(payload, target, replyMode, capabilities),
        unloaded,
        secrets,
        platform: definition.name,
        input: { payload, target, replyMode },
      });
    },
  );

  // The plan's send, executed as `send` executes it: its media is loaded and planned again
  // (bytes can change what a name promised), under the same journal as the send itself.
  const executePlanned = (
    planned: PlannedDelivery,
    options?: ExecuteOptions,
    trace?: SendTrace,
  ): Promise<DeliveryReceipt> => {
    let input: ReturnType<typeof plannedInput>;
    try {
      input = plannedInput(planned, definition.name);
    } catch (error) {
      return Promise.reject(redacted(error));
    }
    return send(input.payload, input.target, { ...options, replyMode: input.replyMode }, trace);
  };

  const adapter: ChannelAdapter = {
    name: definition.name,
    capabilities,
    send: (input: ReplyPayloadInput | ReplyPayload, target: Target, options?: SendOptions) =>
      traced(
        sendChannel,
        () => ({ platform: definition.name, to: String(target?.to ?? "") }),
        (trace) => send(input, target, options, trace),
      ),
    plan,
    execute: (planned: PlannedDelivery, options?: ExecuteOptions) =>
      traced(
        sendChannel,
        () => ({ platform: definition.name, to: String(planned?.input?.target?.to ?? "") }),
        (trace) => executePlanned(planned, options, trace),
      ),
    ...(transport.close === undefined ? {} : { close: () => (transport.close as () => Promise<void>)() }),
  };
  const guardedSync =
    <A extends unknown[], R>(work: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return work(...args);
      } catch (error) {
        throw redacted(error);
      }
    };
  return {
    adapter,
    capabilities,
    renderer,
    clock,
    deletes: transport.deleteMessage !== undefined,
    checkTarget: guardedSync((target: Target) => checkTarget(target, undefined).target),
    check: guardedSync(check),
    exclusive,
    prepare: guarded(prepare),
    execute: guarded(execute),
    run: guarded(run),
    redacted,
  };
}

function nothing(): void {}

/** What text alone keeps of its media: nothing, and nothing to remember. */
const TEXT_ONLY = { inputs: [], remember: nothing };

/**
 * Whether `delivered` names each of `count` parts: a stored list read as counted, not by its
 * length, so a repeated or out-of-range index cannot pass for a part never sent.
 */
function coversEveryPart(delivered: readonly number[], count: number): boolean {
  const seen = new Set<number>();
  for (const index of delivered) if (Number.isInteger(index) && index >= 0 && index < count) seen.add(index);
  return seen.size === count;
}

/** The journal of a send with no journal stored yet. */
function freshJournal(fingerprint: string): DeliveryJournal {
  return { version: JOURNAL_VERSION, fingerprint, messages: [], degraded: [], deliveredParts: [] };
}

/** What {@link replyOf} finds for a send that replies to nothing, and asked for nothing it cannot get. */
const NOT_REPLYING = Object.freeze({ replyTo: undefined, replyDropped: undefined });

/** What {@link replyOf} finds for `[[reply_to_current]]` without `target.currentMessageId`. */
const NO_CURRENT_MESSAGE = Object.freeze({ replyTo: undefined, replyDropped: NO_CURRENT });

/**
 * The message the first operation replies to, and why a reply the payload asks for is not
 * made: the platform has none, or `[[reply_to_current]]` without `target.currentMessageId`
 * (the caller did not say which message is current).
 */
function replyOf(
  payload: ReplyPayload,
  target: Target,
  replyMode: NonNullable<SendOptions["replyMode"]>,
  capabilities: Capabilities,
): { readonly replyTo: string | undefined; readonly replyDropped: Degradation | undefined } {
  if (replyMode === "off" || payload.replyToId === null) return NOT_REPLYING;
  const wanted =
    payload.replyToId !== undefined && payload.replyToId !== ""
      ? payload.replyToId
      : payload.replyToCurrent
        ? target.currentMessageId
        : undefined;
  if (wanted === undefined) return payload.replyToCurrent ? NO_CURRENT_MESSAGE : NOT_REPLYING;
  return capabilities.replies
    ? { replyTo: wanted, replyDropped: undefined }
    : { replyTo: undefined, replyDropped: NO_REPLY };
}
