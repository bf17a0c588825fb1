import type {
  AdapterDefinition,
  ChannelAdapter,
  DeliveryJournal,
  DeliveryReceipt,
  SendOptions,
} from "../adapter/types.js";
import { OutboxError, PayloadError, UnsupportedFeatureError } from "../errors/errors.js";
import { redactError } from "../errors/redact.js";
import { parseReplyMarkdown } from "../markdown/parse-reply-markdown.js";
import { normalizePayload } from "../parse/index.js";
import type { ReplyPayload, ReplyPayloadInput, Target } from "../payload/types.js";
import { planDelivery } from "../plan/build-plan.js";
import { validateCapabilities } from "./capabilities.js";
import { checkSendInput } from "./check-send-input.js";
import { systemClock } from "./clock.js";
import { fingerprint } from "./fingerprint.js";
import { loadMediaInputs } from "./load-media-inputs.js";
import { createMemoryStore } from "./memory-store.js";
import { createPacer } from "./pacer.js";
import { resolveRetryPolicy } from "./retry.js";
import { journalSaver, receiptOf, runPlan } from "./run-plan.js";

/**
 * Build a channel adapter from a platform's capabilities, renderer and transport. `send`
 * normalizes the payload (a `PayloadError` is thrown before any network call), loads the
 * media under the policy, plans (delivery.md) and executes the plan through the
 * transport with pacing, bounded retries and, with an `idempotencyKey`, once-only
 * delivery. The capabilities are validated and frozen; one pacer serves every send.
 */
export function createAdapter(definition: AdapterDefinition): ChannelAdapter {
  const capabilities = validateCapabilities(definition.capabilities);
  const { renderer, transport } = definition;
  if (capabilities.album !== null && transport.sendAlbum === undefined)
    throw new TypeError(
      `Adapter ${definition.name}: capabilities.album is set but the transport has no sendAlbum`,
    );
  const clock = definition.clock ?? systemClock;
  const store = definition.store ?? createMemoryStore();
  const pacer = createPacer(capabilities.rateLimits, clock, definition.pacing);
  const policy = resolveRetryPolicy(definition.retry);
  const locks = new Map<string, Promise<unknown>>();
  const secrets = [...(definition.secrets ?? [])];

  const deliver = async (
    payload: ReplyPayload,
    target: Target,
    options: SendOptions,
  ): Promise<DeliveryReceipt> => {
    const replyMode = options.replyMode ?? "first";
    const key = options.idempotencyKey;
    const print = key === undefined ? "" : fingerprint(payload, target, replyMode);
    const journal: DeliveryJournal = (key === undefined ? undefined : await store.get(key)) ?? {
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
    const media = await loadMediaInputs(payload, capabilities, definition.media, options.signal);
    const plan = planDelivery(
      { tree: parseReplyMarkdown(payload.text), media, audioAsVoice: payload.audioAsVoice },
      capabilities,
      renderer,
    );
    const wanted = replyMode === "off" ? undefined : replyTarget(payload, target);
    return runPlan(plan, {
      transport,
      target,
      retry: { policy, clock, pacer, to: target.to, signal: options.signal, gate: definition.pacing?.gate },
      replyTo: capabilities.replies ? wanted : undefined,
      replyMode,
      replyUnsupported: wanted !== undefined && !capabilities.replies,
      journal,
      save: key === undefined ? undefined : journalSaver(store, key),
      writeAhead: store.writeAhead === true,
      secrets,
    });
  };

  const send = async (
    input: ReplyPayloadInput | ReplyPayload,
    rawTarget: Target,
    rawOptions: SendOptions | undefined,
  ): Promise<DeliveryReceipt> => {
    const { target, options } = checkSendInput(rawTarget, rawOptions);
    if (target.thread !== undefined && !capabilities.threads)
      throw new UnsupportedFeatureError(
        "threads",
        `${definition.name} has no threads; refusing to post outside thread ${target.thread}`,
      );
    const payload = normalizePayload(input, {
      markdownImages: capabilities.markdownImages,
      ...(target.currentMessageId === undefined ? {} : { currentMessageId: target.currentMessageId }),
      ...(definition.media?.workspaceDir === undefined
        ? {}
        : { workspaceDir: definition.media.workspaceDir }),
    });
    const key = options.idempotencyKey;
    if (key === undefined) return deliver(payload, target, options);
    const previous = locks.get(key) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => deliver(payload, target, options));
    locks.set(key, run);
    try {
      return await run;
    } finally {
      if (locks.get(key) === run) locks.delete(key);
    }
  };

  return {
    name: definition.name,
    capabilities,
    async send(input: ReplyPayloadInput | ReplyPayload, target: Target, options?: SendOptions) {
      try {
        return await send(input, target, options);
      } catch (error) {
        // Thrown errors are redacted like receipt entries; a caller's own abort reason is theirs.
        throw error instanceof OutboxError ? redactError(error, secrets) : error;
      }
    },
    ...(transport.close === undefined ? {} : { close: () => (transport.close as () => Promise<void>)() }),
  };
}

function replyTarget(payload: ReplyPayload, target: Target): string | undefined {
  if (payload.replyToId === null) return undefined;
  if (payload.replyToId !== undefined && payload.replyToId !== "") return payload.replyToId;
  return payload.replyToCurrent ? target.currentMessageId : undefined;
}
