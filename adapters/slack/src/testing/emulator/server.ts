/**
 * The Slack Web API emulator: a real HTTP server on 127.0.0.1 answering `POST /api/<method>`
 * with Slack's envelope (HTTP 200 `ok:true` / `ok:false` with Slack's error strings and
 * `response_metadata`; 429 with `Retry-After`), upload URLs pointing back at itself, strict
 * validation, rate limits, fault injection, and every message decoded into an `ObservedMessage`.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import {
  type AnsweredFault,
  type EmulatorAnswer,
  type EmulatorRequest,
  type PlatformEmulator,
  serveEmulator,
} from "@outbox/core/testing";
import { readApiCall } from "./body.js";
import { EDIT_METHODS } from "./edit-methods.js";
import { SlackApiError } from "./errors.js";
import { METHODS, type MethodContext } from "./methods.js";
import { RateLimits } from "./rate-limits.js";
import type { EmulatedConversation, ObservedMessage, SlackEmulatorOptions, StoredMessage } from "./types.js";
import { receiveUpload } from "./upload.js";
import { Workspace } from "./workspace.js";

/**
 * One request the emulator answered: `method` is the Web API method, or `upload` for the POST
 * to an upload URL; `content` a call's arguments (JSON, token left out), or for an upload the
 * file name it was reserved for.
 */
export type { EmulatorRequest };

/**
 * The requests it answers, as a fault's `method` names them: the Web API methods, and
 * `upload` for the POST of the bytes to an upload URL.
 */
export const SLACK_FAULT_TARGETS: readonly string[] = [
  ...Object.keys(METHODS),
  ...Object.keys(EDIT_METHODS),
  "upload",
];

/** A running emulator. */
export interface SlackEmulator extends PlatformEmulator {
  /** Base URL for `slackApiUrl` (ends with `/api/`). */
  readonly slackApiUrl: string;
  /** The bot token it accepts. */
  readonly token: string;
  /** What a Slack client shows in a channel (every channel when omitted), in order. */
  observe(channel?: string): ObservedMessage[];
  /** Messages as stored (raw mrkdwn), seeded ones included. */
  history(channel?: string): StoredMessage[];
  /** Make a conversation exist. */
  addChannel(channel: EmulatedConversation): void;
  /** Record a user's message in a channel (to reply to, or a thread root); returns its ts. */
  seedMessage(channel: string, text: string): string;
}

const DEFAULT_TOKEN = "xoxb-outbox-emulator";
const ALL_SCOPES = ["chat:write", "im:write", "files:write", "files:read"];

/** Slack's error for an injected 429, 5xx or 400 (an upload URL answers a plain 400). */
function faultError(fault: AnsweredFault, entry: EmulatorRequest): SlackApiError {
  if (fault.kind === "rate-limit")
    return new SlackApiError("ratelimited", undefined, undefined, 429, {
      "retry-after": String(fault.retryAfterMs / 1000),
    });
  if (fault.kind === "server-error")
    return new SlackApiError("fatal_error", undefined, undefined, fault.status);
  return new SlackApiError(fault.description, undefined, undefined, entry.method === "upload" ? 400 : 200);
}

/** Slack's envelope for an error; an upload URL answers in plain text but for a 429. */
function answerError(error: unknown, entry: EmulatorRequest): EmulatorAnswer {
  const api =
    error instanceof SlackApiError
      ? error
      : new SlackApiError("fatal_error", [`[ERROR] ${String(error)}`], undefined, 500);
  const headers = api.headers ?? {};
  if (entry.method === "upload" && api.status !== 429)
    return { status: api.status, body: api.error, headers };
  const metadata = api.messages ? { response_metadata: { messages: api.messages } } : {};
  return { status: api.status, body: { ok: false, error: api.error, ...api.extra, ...metadata }, headers };
}

const API_PATH = /^\/api\/([A-Za-z.]+)$/;
const UPLOAD_PATH = /^\/upload\/v1\/(F\d+)-([0-9a-f]+)$/;

/** The fault target of a request: its Web API method, `upload`, or its path. */
function targetOf(url: URL): string {
  return API_PATH.exec(url.pathname)?.[1] ?? (UPLOAD_PATH.test(url.pathname) ? "upload" : url.pathname);
}

/** Start an emulator on 127.0.0.1 with a random port. */
export async function startSlackEmulator(options: SlackEmulatorOptions = {}): Promise<SlackEmulator> {
  const token = options.token ?? DEFAULT_TOKEN;
  const revoked = new Set(options.revokedTokens ?? []);
  const ws = new Workspace(options.channels ?? [{ id: "C0OUTBOX" }], new Set(options.users ?? ["U0OUTBOX"]));
  const limits =
    options.rateLimits === false
      ? undefined
      : new RateLimits(options.rateLimits ?? {}, options.now ?? (() => performance.now()));
  const secret = randomBytes(8).toString("hex");
  let base = "";
  const ctx: MethodContext = {
    ws,
    ...(limits ? { limits } : {}),
    uploadUrl: (file) => `${base}/upload/v1/${file.id}-${secret}`,
    pendingShares: { left: options.pendingShares ?? 0 },
  };

  const receive = async (req: IncomingMessage, id: string, given: string): Promise<EmulatorAnswer> => {
    const file = ws.files.get(id);
    if (!file || given !== secret) throw new SlackApiError("invalid upload URL", undefined, undefined, 404);
    let received: Awaited<ReturnType<typeof receiveUpload>>;
    try {
      received = await receiveUpload(req, file.fileName);
    } catch (error) {
      throw new SlackApiError(`malformed upload: ${String(error)}`, undefined, undefined, 400);
    }
    if (received.bytes !== file.declared)
      throw new SlackApiError(
        `length mismatch: declared ${file.declared} bytes, received ${received.bytes}`,
        undefined,
        undefined,
        400,
      );
    file.upload = received;
    return { status: 200, body: `OK - ${received.bytes}` };
  };

  const server = await serveEmulator<EmulatorRequest>({
    faultTargets: SLACK_FAULT_TARGETS,
    entry: (_req, url) => ({ method: targetOf(url), status: 0 }),
    jsonType: "application/json; charset=utf-8",
    faultError,
    answerError,
    handle: async ({ req, url, entry, fault }) => {
      const api = API_PATH.exec(url.pathname);
      const upload = UPLOAD_PATH.exec(url.pathname);
      if (req.method !== "POST") throw new SlackApiError("method_not_allowed", undefined, undefined, 405);
      const call = api ? await readApiCall(req) : undefined;
      if (call) {
        const { token: _token, ...args } = call.args;
        entry.content = JSON.stringify(args);
      } else if (upload) entry.content = JSON.stringify([ws.files.get(upload[1] as string)?.fileName]);
      fault();
      if (upload) return receive(req, upload[1] as string, upload[2] as string);
      if (!api || !call) throw new SlackApiError("unknown_method", undefined, undefined, 404);
      if (call.token === undefined) throw new SlackApiError("not_authed");
      if (revoked.has(call.token)) throw new SlackApiError("token_revoked");
      if (call.token !== token) throw new SlackApiError("invalid_auth");
      const method = METHODS[entry.method] ?? EDIT_METHODS[entry.method];
      if (!method) throw new SlackApiError("unknown_method");
      const scopes = options.scopes ?? ALL_SCOPES;
      if (method.scope !== undefined && !scopes.includes(method.scope))
        throw new SlackApiError("missing_scope", undefined, {
          needed: method.scope,
          provided: scopes.join(","),
        });
      return {
        status: 200,
        body: { ok: true, ...method.run(call.args, ctx) },
        headers: { "x-oauth-scopes": scopes.join(",") },
      };
    },
  });
  base = server.url;

  return {
    ...server,
    slackApiUrl: `${base}/api/`,
    token,
    observe: (channel) => ws.observe(channel),
    history: (channel) => ws.messages.filter((m) => channel === undefined || m.channel === channel),
    rateLimitRefusals: () => limits?.refusals ?? 0,
    addChannel: (channel) => ws.add(channel),
    seedMessage: (channel, text) => ws.post({ channel, text, files: [], inbound: true }).ts,
  };
}
