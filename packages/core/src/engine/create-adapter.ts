import type {
  AdapterDefinition,
  ChannelAdapter,
  DeliveryJournal,
  DeliveryReceipt,
  PlannedDelivery,
  PlanOptions,
  PreviewOptions,
  SendOptions,
} from "../adapter/types.js";
import { OutboxError, PayloadError, UnsupportedFeatureError } from "../errors/errors.js";
import { redactError } from "../errors/redact.js";
import { replyTree } from "../markdown/parse-reply-markdown.js";
import { sendChannel, traced } from "../observe/channels.js";
import { normalizePayload } from "../parse/index.js";
import type { ParseOptions, ReplyPayload, ReplyPayloadInput, Target } from "../payload/types.js";
import { planDelivery } from "../plan/build-plan.js";
import type { MediaInput } from "../plan/types.js";
import { createPreview } from "../preview/create-preview.js";
import { validateCapabilities } from "./capabilities.js";
import { checkSendInput } from "./check-send-input.js";
import { systemClock } from "./clock.js";
import { describeMediaInputs } from "./describe-media.js";
import { describePlan } from "./describe-plan.js";
import { distinctMedia } from "./distinct-media.js";
import { fingerprint } from "./fingerprint.js";
import { JOURNAL_VERSION, resumableJournal } from "./journal-version.js";
import { loadMediaInputs } from "./load-media-inputs.js";
import { createMemoryStore } from "./memory-store.js";
import { randomSendKey } from "./operation-key.js";
import { createPacer } from "./pacer.js";
import { resolveRetryPolicy } from "./retry.js";
import { journalSaver, type PlanHook, receiptOf, runPlan } from "./run-plan.js";

/**
 * Build a channel adapter from a platform's capabilities, renderer and transport. `send`
 * normalizes the payload (a `PayloadError` is thrown before any network call), loads the
 * media under the policy, plans (delivery.md) and executes the plan through the
 * transport with pacing, bounded retries and, with an `idempotencyKey`, once-only
 * delivery. The capabilities are validated and frozen; one pacer serves every send. With
 * `capabilities.edits` the adapter also has `preview` (a live preview, docs/live-preview.md),
 * whose edits share that pacer. `plan` runs the same checks and plan as `send` with no
 * network call or file read (docs/delivery.md, "Planning without sending").
 */
export function createAdapter(definition: AdapterDefinition): ChannelAdapter {
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
  const pacer = createPacer(capabilities.rateLimits, clock, definition.pacing);
  const policy = resolveRetryPolicy(definition.retry);
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

  const deliver = async (
    payload: ReplyPayload,
    target: Target,
    options: SendOptions,
    hook: PlanHook | undefined,
  ): Promise<DeliveryReceipt> => {
    const replyMode = options.replyMode ?? "first";
    const key = options.idempotencyKey;
    const print = key === undefined ? "" : fingerprint(payload, target, replyMode);
    const stored = key === undefined ? undefined : await store.get(key);
    let journal: DeliveryJournal =
      key !== undefined && stored !== undefined
        ? resumableJournal(stored, key)
        : {
            version: JOURNAL_VERSION,
            fingerprint: print,
            messages: [],
            degraded: [],
            deliveredParts: [],
          };
    if (journal.fingerprint !== print)
      throw new PayloadError(
        `idempotencyKey ${JSON.stringify(key)} was used for a different payload or target`,
        [{ path: ["idempotencyKey"], message: "reused with a different payload or target", code: "custom" }],
      );
    if (journal.partCount !== undefined && journal.deliveredParts.length === journal.partCount)
      return receiptOf(journal, []);
    const loaded = await loadMediaInputs(payload, capabilities, definition.media, options.signal);
    const { inputs: media, remember } = await distinctMedia(loaded, payload, options.mediaMemory);
    const plan = planOf(payload, media);
    const save = key === undefined ? undefined : journalSaver(store, key);
    const wanted = replyMode === "off" ? undefined : replyTarget(payload, target);
    if (hook !== undefined) {
      const before = journal;
      journal = await hook(plan, journal, capabilities.replies ? wanted : undefined);
      if (journal !== before) await save?.(journal);
    }
    const receipt = await runPlan(plan, {
      transport,
      target,
      retry: { policy, clock, pacer, to: target.to, signal: options.signal, gate: definition.pacing?.gate },
      replyTo: capabilities.replies ? wanted : undefined,
      replyMode,
      replyUnsupported: wanted !== undefined && !capabilities.replies,
      sendKey: key ?? randomSendKey(),
      ...(definition.media?.host === undefined ? {} : { travel: { host: definition.media.host, renderer } }),
      journal,
      save,
      writeAhead: store.writeAhead === true,
      ambiguous: options.ambiguous ?? (policy.retryAmbiguous ? "resend" : "report"),
      secrets,
    });
    if (receipt.ok || receipt.messages.length > 0) remember();
    return receipt;
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
  const prepare = (
    input: ReplyPayloadInput | ReplyPayload,
    rawTarget: Target,
    rawOptions: SendOptions | undefined,
  ) => {
    const { target, options } = checkTarget(rawTarget, rawOptions);
    const payload = normalizePayload(
      input,
      target.currentMessageId === undefined
        ? parseOptions
        : { ...parseOptions, currentMessageId: target.currentMessageId },
    );
    return { payload, target, options };
  };

  const send = async (
    input: ReplyPayloadInput | ReplyPayload,
    rawTarget: Target,
    rawOptions: SendOptions | undefined,
    hook?: PlanHook,
  ): Promise<DeliveryReceipt> => {
    const { payload, target, options } = prepare(input, rawTarget, rawOptions);
    const key = options.idempotencyKey;
    if (key === undefined) return deliver(payload, target, options, hook);
    const previous = locks.get(key) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => deliver(payload, target, options, hook));
    locks.set(key, run);
    try {
      return await run;
    } finally {
      if (locks.get(key) === run) locks.delete(key);
    }
  };

  // Thrown errors are redacted like receipt entries; a caller's own abort reason is theirs.
  const redacted = (error: unknown): unknown =>
    error instanceof OutboxError ? redactError(error, secrets) : error;
  const guardedSend: typeof send = async (input, target, options, hook) => {
    try {
      return await send(input, target, options, hook);
    } catch (error) {
      throw redacted(error);
    }
  };

  const plan = async (
    input: ReplyPayloadInput | ReplyPayload,
    rawTarget: Target,
    rawOptions?: PlanOptions,
  ): Promise<PlannedDelivery> => {
    try {
      const { payload, target, options } = prepare(input, rawTarget, rawOptions);
      const { inputs, unloaded } = await describeMediaInputs(payload, capabilities, definition.media);
      const { inputs: media } = await distinctMedia(inputs, payload, options.mediaMemory);
      const wanted = options.replyMode === "off" ? undefined : replyTarget(payload, target);
      return describePlan(planOf(payload, media), {
        replyTo: capabilities.replies ? wanted : undefined,
        replyUnsupported: wanted !== undefined && !capabilities.replies,
        unloaded,
        secrets,
      });
    } catch (error) {
      throw redacted(error);
    }
  };

  const edits = capabilities.edits;
  const preview =
    edits == null
      ? {}
      : {
          preview(rawTarget: Target, options: PreviewOptions = {}) {
            try {
              return createPreview(
                {
                  capabilities,
                  edits,
                  renderer,
                  transport,
                  clock,
                  retry: { policy, pacer, gate: definition.pacing?.gate },
                  secrets,
                  send: guardedSend,
                },
                checkTarget(rawTarget, undefined).target,
                options,
              );
            } catch (error) {
              throw redacted(error);
            }
          },
        };

  return {
    name: definition.name,
    capabilities,
    send: (input: ReplyPayloadInput | ReplyPayload, target: Target, options?: SendOptions) =>
      traced(
        sendChannel,
        () => ({ platform: definition.name, to: String(target?.to ?? "") }),
        () => guardedSend(input, target, options),
      ),
    plan,
    ...preview,
    ...(transport.close === undefined ? {} : { close: () => (transport.close as () => Promise<void>)() }),
  };
}

function replyTarget(payload: ReplyPayload, target: Target): string | undefined {
  if (payload.replyToId === null) return undefined;
  if (payload.replyToId !== undefined && payload.replyToId !== "") return payload.replyToId;
  return payload.replyToCurrent ? target.currentMessageId : undefined;
}
