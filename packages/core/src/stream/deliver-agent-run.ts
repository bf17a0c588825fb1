/**
 * `deliverAgentRun`: turn an agent's event stream into deliveries on one channel, in
 * `final`, `blocks` or `preview` mode, with the once-only rules of `createDeliveryTurn`
 * (spec: docs/streaming.md).
 */
import type { ChannelAdapter } from "../adapter/types.js";
import { systemClock } from "../engine/clock.js";
import { AgentRunError } from "../errors/errors.js";
import { redactError } from "../errors/redact.js";
import { agentRunChannel, traced } from "../observe/channels.js";
import { createDeliveryTurn } from "../parse/delivery-turn.js";
import { normalizePayload } from "../parse/normalize-payload.js";
import type { MediaAttachment, ReplyPayload, ReplyPayloadInput, Target } from "../payload/types.js";
import type { AgentEvent, AgentToolResultEvent } from "./agent-event.js";
import { createBlockSplitter, type FlushScope } from "./block-splitter.js";
import { createEventReader } from "./event-reader.js";
import { createPreviewCoverage } from "./preview-coverage.js";
import { createProgressFeed } from "./progress-feed.js";
import { createRunLedger } from "./run-ledger.js";
import { splitMedia, toolOutput, undeliveredOf, withToolItems } from "./run-media.js";
import { checkRunOptions } from "./run-options.js";
import { createRunReply } from "./run-reply.js";
import { createRunSender } from "./run-sender.js";
import { createRunText } from "./run-text.js";
import type {
  AgentRunDelivery,
  AgentRunProgress,
  AgentRunReceipt,
  DeliverAgentRunOptions,
} from "./run-types.js";
import { createRunVoice } from "./run-voice.js";
import { mayOpenWithTag, tagsOf } from "./written-tags.js";

/**
 * Deliver an agent's run to `target` as it happens. Returns at once: iterate the result for
 * progress (`delivered`, `preview-started`, `fallback`, `tool-result`, then `done`), or await
 * `.receipt` for the combined receipt. Invalid options throw a `PayloadError` before any
 * event is read. Delivery failures, a runtime `error` event and an abort are reported in the
 * receipt, never thrown.
 */
export function deliverAgentRun(
  events: AsyncIterable<AgentEvent>,
  adapter: ChannelAdapter,
  target: Target,
  options: DeliverAgentRunOptions = {},
): AgentRunDelivery {
  const settings = checkRunOptions(options, target);
  const feed = createProgressFeed<AgentRunProgress>();
  const receipt = traced(
    agentRunChannel,
    () => ({ platform: adapter.name, to: target.to }),
    () => runAgent(events, adapter, target, options, settings, feed.push),
  ).then(
    (result) => {
      feed.push({ type: "done", receipt: result });
      feed.close();
      return result;
    },
    (error: unknown) => {
      feed.close();
      throw error;
    },
  );
  receipt.catch(() => undefined);
  return { receipt, [Symbol.asyncIterator]: () => feed.iterate() };
}

async function runAgent(
  events: AsyncIterable<AgentEvent>,
  adapter: ChannelAdapter,
  target: Target,
  options: DeliverAgentRunOptions,
  settings: ReturnType<typeof checkRunOptions>,
  progress: (item: AgentRunProgress) => void,
): Promise<AgentRunReceipt> {
  const { signal, workspaceDir, idempotencyKey: runKey } = options;
  const canPreview = adapter.preview !== undefined && adapter.capabilities.edits != null;
  const fallback =
    settings.mode === "preview" && !canPreview
      ? {
          from: "preview" as const,
          to: settings.previewFallback,
          reason: `${adapter.name} cannot edit messages (no preview); streaming in ${settings.previewFallback} mode`,
        }
      : undefined;
  const mode = fallback?.to ?? settings.mode;
  if (fallback) progress({ type: "fallback", ...fallback });

  const turn = createDeliveryTurn(workspaceDir === undefined ? {} : { workspaceDir });
  const parseOptions = {
    markdownImages: adapter.capabilities.markdownImages,
    ...(target.currentMessageId === undefined ? {} : { currentMessageId: target.currentMessageId }),
    ...(workspaceDir === undefined ? {} : { workspaceDir }),
  };
  const normalize = (input: ReplyPayloadInput): ReplyPayload => normalizePayload(input, parseOptions);
  /** A payload for a delivery during the run: media already delivered left out; `null` when nothing is left. */
  const unsent = (payload: ReplyPayload): ReplyPayload | null => {
    const rest = turn.withoutSent(payload);
    const empty = rest.text.trim() === "" && rest.mediaUrls.length === 0 && rest.media.length === 0;
    return empty && (rest.refusedMedia ?? []).length === 0 ? null : rest;
  };
  const ledger = createRunLedger();
  const splitter = mode === "blocks" ? createBlockSplitter(settings.sizes) : undefined;
  const reader = createEventReader(events, options.clock ?? systemClock, signal);
  const toolItems: MediaAttachment[] = [];
  // The one model of the text written so far: the preview, its coverage and the tags all read it.
  const written = createRunText(parseOptions, { limit: adapter.capabilities.text.maxLength });
  const coverage = createPreviewCoverage(written, parseOptions);
  let toolVoice = false;

  const reply = createRunReply(options, target, adapter.capabilities, ledger.degrade);
  const sender = createRunSender({
    adapter,
    target,
    turn,
    ledger,
    progress,
    signal,
    runKey,
    reply,
    voice: createRunVoice(ledger.degrade),
    // Blocks are read as they are delivered: what no delivery read yet is the text the splitter holds.
    unread: splitter ? () => tagsOf(splitter.pending, target.currentMessageId) : () => written.tags(),
  });
  const stopPreview = (): void => void sender.cancelPreview();
  const deliver = sender.deliver;
  const deliverBlocks = async (blocks: string[]): Promise<void> => {
    for (const block of blocks) await deliver("block", () => unsent(sender.read(normalize({ text: block }))));
  };
  const flush = (scope: FlushScope): Promise<void> => deliverBlocks(splitter?.flush(scope) ?? []);
  const finalPayload = (text: string, media: ReturnType<typeof splitMedia>): ReplyPayload | null => {
    const payload = withToolItems(
      sender.read(normalize({ text, mediaUrls: media.refs, media: media.items })),
      toolItems,
      workspaceDir,
    );
    const rest = turn.finalize({
      ...payload,
      audioAsVoice: payload.audioAsVoice || (toolItems.length > 0 && toolVoice),
    });
    toolItems.length = 0;
    return rest;
  };
  const onToolResult = (event: AgentToolResultEvent): void => {
    const tool = toolOutput(event, settings.untrusted, parseOptions);
    turn.addToolMedia(tool.refs, { audioAsVoice: tool.audioAsVoice });
    toolItems.push(...tool.items);
    if (tool.items.length > 0) toolVoice ||= tool.audioAsVoice;
    progress({
      type: "tool-result",
      ...(event.toolName ? { toolName: event.toolName } : {}),
      ...(tool.text === undefined ? {} : { text: tool.text }),
    });
  };

  let end: AgentRunReceipt["end"] = "done";
  let failure: unknown;
  let result: { text: string; media?: ReturnType<typeof splitMedia> } | undefined;
  let idleArmed = false;
  for (;;) {
    const wantsIdle = splitter !== undefined && idleArmed && splitter.pending.trim() !== "";
    const outcome = await reader.next(wantsIdle ? settings.idleMs : undefined);
    if (outcome.kind === "idle") {
      idleArmed = false;
      await flush("lines");
      continue;
    }
    if (outcome.kind === "end") break;
    if (outcome.kind === "aborted") {
      end = "aborted";
      break;
    }
    if (outcome.kind === "failed") {
      end = "error";
      failure = outcome.error;
      break;
    }
    const { event } = outcome;
    if (event.type === "text") {
      written.push(event.text);
      idleArmed = true;
      if (splitter) await deliverBlocks(splitter.push(event.text));
      else if (mode === "preview") {
        // A tag opening the reply, split across deltas, is waited for: the preview's first
        // message cannot become a reply afterwards, and nothing would be shown meanwhile.
        if (sender.preview === undefined && !mayOpenWithTag(written.head)) {
          sender.readWritten();
          const replyToId = reply.previewReplyTo();
          sender.preview = adapter.preview?.(target, {
            ...(settings.previewIntervalMs === undefined ? {} : { intervalMs: settings.previewIntervalMs }),
            ...(replyToId === undefined ? {} : { replyToId }),
          });
          // The abort cancels the preview, which lets a call in flight finish: the receipt knows what it shows.
          signal?.addEventListener("abort", stopPreview, { once: true });
          progress({ type: "preview-started" });
        }
        // The text is joined only when the preview sends an edit (when it can ask for it).
        if (sender.preview?.updateFrom) sender.preview.updateFrom(coverage.source);
        else sender.preview?.update(coverage.source());
      }
    } else if (event.type === "media") {
      await flush("paused");
      await deliver("media", () => unsent(normalize({ media: [event.media] })));
    } else if (event.type === "tool_use") await flush("paused");
    else if (event.type === "tool_result") onToolResult(event);
    else if (event.type === "error") {
      end = "error";
      failure = event.error;
      break;
    } else {
      if (event.result) result = { text: event.result.text, media: splitMedia(event.result.media) };
      break;
    }
    if (signal?.aborted) {
      end = "aborted";
      break;
    }
  }
  reader.close();
  if (signal?.aborted) end = "aborted";

  const streamed = written.raw;
  if (end === "done") {
    await flush("end");
    const text = splitter
      ? result === undefined || result.text.trim() === streamed.trim()
        ? ""
        : result.text
      : (result?.text ?? streamed);
    await deliver("final", () => finalPayload(text, result?.media ?? { refs: [], items: [] }));
  } else if (end === "error") {
    await flush("paragraphs");
    const complete = splitter ? 0 : written.complete;
    await deliver("final", () =>
      finalPayload(splitter ? "" : streamed.slice(0, complete), { refs: [], items: [] }),
    );
    // With no complete paragraph the preview was cancelled: what it shows stays on screen.
    const unseen = complete === 0 ? coverage.unseen(await sender.cancelPreview()) : undefined;
    if (signal?.aborted) end = "aborted";
    else {
      const message = `the agent run failed: ${describe(failure)}`;
      const leftover = splitter ? splitter.pending : (unseen?.text ?? streamed.slice(complete));
      const undelivered = undeliveredOf(leftover, unseen ? normalize({ mediaUrls: unseen.mediaUrls }) : null);
      // The runtime's error (and its cause chain) may carry an API key or a signed URL.
      ledger.fail(redactError(new AgentRunError("agent-error", message, undelivered, { cause: failure })));
    }
  }
  if (end === "aborted") {
    const unseen = coverage.unseen(await sender.cancelPreview());
    const rest = turn.finalize(normalize({ mediaUrls: unseen.mediaUrls }));
    const items = toolItems.length;
    const undelivered = undeliveredOf(splitter ? splitter.pending : unseen.text, rest);
    undelivered.media += items;
    ledger.fail(
      new AgentRunError("aborted", "the agent run was aborted; nothing more was delivered", undelivered),
    );
  }
  signal?.removeEventListener("abort", stopPreview);
  // A tag written after the last delivery still names the messages sent before it.
  sender.readWritten();
  reply.finish();
  const previewReplaced = sender.replaced;
  return ledger.receipt({
    mode,
    ...(fallback ? { fallback } : {}),
    end,
    ...(previewReplaced ? { previewReplaced } : {}),
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
