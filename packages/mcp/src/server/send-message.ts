/**
 * The `send_message` tool: arguments → payload (media through `mediaFromMcpArguments`) →
 * delivery through the platform's adapter → receipt. Temp files are removed whatever
 * happens; every failure is a tool error (`isError`) with the reason. With an
 * `idempotencyKey` the adapter's journal (kept for the server process's life) makes a repeat
 * send only what was not delivered.
 */
import { createHash } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  type DeliveryReceipt,
  OutboxError,
  PayloadError,
  type ReplyPayloadInput,
  type SendOptions,
  type Target,
} from "@outbox/core";
import { mediaFromMcpArguments } from "../inbound/media-from-arguments.js";
import type { McpInboundMedia, McpMediaArgument } from "../inbound/types.js";
import { receiptToJson, summarizeReceipt } from "../receipt-json.js";
import type { ChannelPool } from "./channel-pool.js";
import { inToolTerms, refusalAction, toolAction } from "./tool-actions.js";

/** Arguments of `send_message`. */
export interface SendMessageArguments {
  /** Platform name (`telegram`, …). */
  platform: string;
  /** Chat, channel or user id on the platform. */
  to: string;
  /** Thread / topic id. */
  thread?: string;
  /** Platform id of the message to reply to. */
  replyTo?: string;
  /** The message (Markdown). */
  message: string;
  /** Images, base64. */
  images?: McpMediaArgument[];
  /** Files, base64. */
  files?: McpMediaArgument[];
  /** Send audio as a voice note where the platform can. */
  voice?: boolean;
  /** Names this message: a repeat with the same key sends only what was not delivered. */
  idempotencyKey?: string;
  /** On a repeat: what to do with the parts that may have been delivered (core's `SendOptions.ambiguous`). */
  ambiguous?: SendOptions["ambiguous"];
}

/**
 * Calls with one idempotency key run one after the other (process-wide: every server of the
 * process shares the adapters), so they never share their fixed media directory at once.
 */
const running = new Map<string, Promise<unknown>>();

/** Run `task` after the other calls holding `key`. */
async function serialized<T>(key: string | undefined, task: () => Promise<T>): Promise<T> {
  if (key === undefined) return task();
  const run = (running.get(key) ?? Promise.resolve()).catch(() => undefined).then(task);
  running.set(key, run);
  try {
    return await run;
  } finally {
    if (running.get(key) === run) running.delete(key);
  }
}

/** What `send_message` needs besides its arguments. */
export interface SendMessageContext {
  /** The adapters. */
  pool: ChannelPool;
  /** Where per-call temp directories are created (the adapters' media root). */
  mediaDir: string;
  /** Replaces secrets in any text the tool returns. */
  redact: (text: string) => string;
  /** Cancels the call (the client cancelled the request). */
  signal?: AbortSignal;
}

/**
 * A tool error: the reason and what the agent can do as text, and code, message, action and
 * issues as structured content.
 */
export function toolError(error: unknown, clean: (text: string) => string): CallToolResult {
  const message = clean(error instanceof Error ? error.message : String(error));
  const code = error instanceof OutboxError ? error.code : "internal_error";
  const issues = error instanceof PayloadError ? error.issues.map((i) => ({ ...i, path: [...i.path] })) : [];
  const action = refusalAction(error);
  return {
    isError: true,
    content: [
      {
        type: "text",
        text: `send_message failed (${code}): ${message}${/[.)]$/.test(message) ? "" : "."} To do: ${action}.`,
      },
    ],
    structuredContent: { ok: false, error: { code, message, action, issues } },
  };
}

/** `text` with the media directory (the server's temp dir) out of it. */
function hideDir(text: string, mediaDir: string): string {
  return text.split(mediaDir).join("<media directory>");
}

/**
 * What the client may read of a message: secrets redacted, no server path (each uploaded
 * item's temp file named as the client named it, `images[0] (chart.png)`, the media
 * directory as `<media directory>`), the adapter's key as the agent gave it, and core's
 * advice to the integrator in the tool's terms.
 */
function cleaner(
  args: SendMessageArguments,
  inbound: McpInboundMedia,
  ctx: SendMessageContext,
): (text: string) => string {
  const images = args.images?.length ?? 0;
  const labels = inbound.media.map((item, at) => {
    const where = at < images ? `images[${at}]` : `files[${at - images}]`;
    return [item.filePath ?? "", `${where} (${item.fileName ?? "file"})`] as const;
  });
  const key = args.idempotencyKey === undefined ? [] : [[adapterKey(args), args.idempotencyKey] as const];
  return (text) =>
    ctx.redact(
      inToolTerms(
        hideDir(
          [...labels, ...key].reduce(
            (out, [path, label]) => (path === "" ? out : out.split(path).join(label)),
            text,
          ),
          ctx.mediaDir,
        ),
      ),
    );
}

/** The key the adapter's journal holds the call under: the platform's, so keys of two platforms never meet. */
function adapterKey(args: SendMessageArguments): string {
  return `mcp:${args.platform}:${args.idempotencyKey}`;
}

/** Runs one `send_message` call. Never throws: failures are tool errors. */
export function sendMessage(args: SendMessageArguments, ctx: SendMessageContext): Promise<CallToolResult> {
  const key =
    args.idempotencyKey === undefined
      ? undefined
      : createHash("sha256")
          .update(`${ctx.mediaDir}\0${args.platform}\0${args.idempotencyKey}`)
          .digest("hex");
  return serialized(key, () => deliver(args, ctx, key));
}

/** One call; `key` (the hashed platform and idempotency key) names its media directory. */
async function deliver(
  args: SendMessageArguments,
  ctx: SendMessageContext,
  key: string | undefined,
): Promise<CallToolResult> {
  let inbound: McpInboundMedia;
  let adapter: Awaited<ReturnType<ChannelPool["get"]>>;
  try {
    const media = (args.images?.length ?? 0) + (args.files?.length ?? 0);
    if (args.message.trim() === "" && media === 0) {
      throw new PayloadError("Nothing to send: the message is empty and there are no images or files.", [
        { path: ["message"], code: "too_small", message: "a message, an image or a file is required" },
      ]);
    }
    if (args.ambiguous !== undefined && args.idempotencyKey === undefined) {
      // Core would refuse it too, in terms of its own send options.
      throw new PayloadError(
        "`ambiguous` settles the parts an earlier call left unsure, so it needs that call's `idempotencyKey`.",
        [{ path: ["ambiguous"], code: "custom", message: "needs the idempotencyKey of the earlier call" }],
      );
    }
    adapter = await ctx.pool.get(args.platform);
    inbound = await mediaFromMcpArguments(
      {
        message: args.message,
        ...(args.images ? { images: args.images } : {}),
        ...(args.files ? { files: args.files } : {}),
      },
      {
        parentDir: ctx.mediaDir,
        extractPdfText: false,
        // A repeat must load the same paths: the journal's fingerprint covers them.
        ...(key === undefined ? {} : { dirName: `outbox-mcp-key-${key.slice(0, 32)}` }),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      },
    );
  } catch (error) {
    return toolError(error, (text) => ctx.redact(inToolTerms(hideDir(text, ctx.mediaDir))));
  }
  const clean = cleaner(args, inbound, ctx);
  try {
    const payload: ReplyPayloadInput = {
      text: inbound.message,
      media: inbound.media,
      audioAsVoice: args.voice ?? false,
      ...(args.replyTo === undefined ? {} : { replyToId: args.replyTo }),
    };
    const target: Target = { to: args.to, ...(args.thread === undefined ? {} : { thread: args.thread }) };
    const options: SendOptions = {
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(args.idempotencyKey === undefined ? {} : { idempotencyKey: adapterKey(args) }),
      ...(args.ambiguous === undefined ? {} : { ambiguous: args.ambiguous }),
    };
    const receipt = advised(await adapter.send(payload, target, options), args.idempotencyKey !== undefined);
    const where = `${args.platform}:${args.to}`;
    const json = receiptToJson(receipt);
    for (const failure of json.failures) {
      failure.message = clean(failure.message);
      if (failure.content !== undefined) failure.content = clean(failure.content);
      if (failure.action !== undefined) failure.action = clean(failure.action);
    }
    return {
      content: [{ type: "text", text: clean(summarizeReceipt(where, receipt)) }],
      structuredContent: { platform: args.platform, to: args.to, ...json },
      ...(receipt.ok ? {} : { isError: true }),
    };
  } catch (error) {
    return toolError(error, clean);
  } finally {
    await inbound.cleanup();
  }
}

/** The receipt with each failure's action in terms of the tool's arguments. */
function advised(receipt: DeliveryReceipt, keyed: boolean): DeliveryReceipt {
  return {
    ...receipt,
    failures: receipt.failures.map((failure) => ({ ...failure, action: toolAction(failure, keyed) })),
  };
}
