/**
 * The Slack Web API emulator: a real HTTP server on 127.0.0.1 answering `POST /api/<method>`
 * with Slack's envelope (HTTP 200 `ok:true` / `ok:false` with Slack's error strings and
 * `response_metadata`; 429 with `Retry-After`), upload URLs pointing back at itself, strict
 * validation, rate limits, fault injection, and every message decoded into an `ObservedMessage`.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serveFaults } from "@outbox/core";
import { readApiCall } from "./body.js";
import { EDIT_METHODS } from "./edit-methods.js";
import { SlackApiError } from "./errors.js";
import { METHODS, type MethodContext } from "./methods.js";
import { RateLimits } from "./rate-limits.js";
import type {
  EmulatedConversation,
  Fault,
  ObservedMessage,
  SlackEmulatorOptions,
  StoredMessage,
} from "./types.js";
import { receiveUpload } from "./upload.js";
import { Workspace } from "./workspace.js";

/** One request the emulator answered. */
export interface EmulatorRequest {
  /** Web API method, or `upload` for an upload URL. */
  method: string;
  /** HTTP status answered (0 for a dropped connection or an answer withheld). */
  status: number;
  /**
   * What the request carried, as text: a Web API call's arguments (JSON, token left out), or
   * for an upload the file name it was reserved for; absent until it was read. A request
   * listed here reached the platform, processed or not.
   */
  content?: string;
}

/** A running emulator. */
export interface SlackEmulator {
  /** Base URL for `slackApiUrl` (ends with `/api/`). */
  readonly slackApiUrl: string;
  /** The bot token it accepts. */
  readonly token: string;
  /** Every request, in arrival order. */
  readonly requests: readonly EmulatorRequest[];
  /** What a Slack client shows in a channel (every channel when omitted), in order. */
  observe(channel?: string): ObservedMessage[];
  /** Messages as stored (raw mrkdwn), seeded ones included. */
  history(channel?: string): StoredMessage[];
  /** Misbehave on the next call(s) (Web API calls and uploads alike). */
  inject(fault: Fault): void;
  /** 429s answered under the emulator's own rate limits (injected faults not counted). */
  rateLimitRefusals(): number;
  /** Connections reset by a `reset-before-write` fault before their request was written. */
  refusedConnections(): number;
  /** Make a conversation exist. */
  addChannel(channel: EmulatedConversation): void;
  /** Record a user's message in a channel (to reply to, or a thread root); returns its ts. */
  seedMessage(channel: string, text: string): string;
  /** Stop the server and drop its connections. */
  close(): Promise<void>;
}

const DEFAULT_TOKEN = "xoxb-outbox-emulator";
const ALL_SCOPES = ["chat:write", "im:write", "files:write", "files:read"];

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
  const requests: EmulatorRequest[] = [];
  let base = "";
  const ctx: MethodContext = {
    ws,
    ...(limits ? { limits } : {}),
    uploadUrl: (file) => `${base}/upload/v1/${file.id}-${secret}`,
    pendingShares: { left: options.pendingShares ?? 0 },
  };

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    entry: EmulatorRequest,
  ): Promise<number> => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const api = /^\/api\/([A-Za-z.]+)$/.exec(path);
    const upload = /^\/upload\/v1\/(F\d+)-([0-9a-f]+)$/.exec(path);
    entry.method = api?.[1] ?? (upload ? "upload" : path);
    if (req.method !== "POST") throw new SlackApiError("method_not_allowed", undefined, undefined, 405);
    const call = api ? await readApiCall(req) : undefined;
    if (call) {
      const { token: _token, ...args } = call.args;
      entry.content = JSON.stringify(args);
    } else if (upload) entry.content = JSON.stringify([ws.files.get(upload[1] as string)?.fileName]);
    const fault = faults.next(entry.method, req, res);
    if (fault?.kind === "reset") {
      req.socket.destroy();
      return 0;
    }
    if (fault?.kind === "rate-limit")
      throw new SlackApiError("ratelimited", undefined, undefined, 429, {
        "retry-after": String(fault.retryAfterMs / 1000),
      });
    if (fault?.kind === "server-error")
      throw new SlackApiError("fatal_error", undefined, undefined, fault.status);
    if (fault?.kind === "reject")
      throw new SlackApiError(fault.description, undefined, undefined, upload ? 400 : 200);
    if (upload) return receive(req, res, upload[1] as string, upload[2] as string);
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
    return reply(res, 200, { ok: true, ...method.run(call.args, ctx) }, scopes);
  };

  const receive = async (
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    given: string,
  ): Promise<number> => {
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
    const body = `OK - ${received.bytes}`;
    res.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(body) });
    res.end(body);
    return res.headersSent ? 200 : 0;
  };

  const server = createServer((req, res) => {
    const entry: EmulatorRequest = { method: "", status: 0 };
    requests.push(entry);
    handle(req, res, entry)
      .then((status) => {
        entry.status = status;
      })
      .catch((error: unknown) => {
        const api =
          error instanceof SlackApiError
            ? error
            : new SlackApiError("fatal_error", [`[ERROR] ${String(error)}`], undefined, 500);
        if (!req.complete) req.resume();
        entry.status = refuse(res, api, entry.method === "upload");
      });
  });
  const faults = serveFaults(server, [...Object.keys(METHODS), ...Object.keys(EDIT_METHODS), "upload"]);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    slackApiUrl: `${base}/api/`,
    token,
    requests,
    observe: (channel) => ws.observe(channel),
    history: (channel) => ws.messages.filter((m) => channel === undefined || m.channel === channel),
    inject: (fault) => faults.inject(fault),
    rateLimitRefusals: () => limits?.refusals ?? 0,
    refusedConnections: () => faults.refusedConnections,
    addChannel: (channel) => ws.add(channel),
    seedMessage: (channel, text) => ws.post({ channel, text, files: [], inbound: true }).ts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function refuse(res: ServerResponse, error: SlackApiError, upload: boolean): number {
  if (res.headersSent) return res.statusCode;
  if (upload && error.status !== 429) {
    res.writeHead(error.status, { "content-type": "text/plain", ...error.headers });
    res.end(error.error);
    return error.status;
  }
  const metadata = error.messages ? { response_metadata: { messages: error.messages } } : {};
  return reply(
    res,
    error.status,
    { ok: false, error: error.error, ...error.extra, ...metadata },
    undefined,
    error.headers,
  );
}

function reply(
  res: ServerResponse,
  status: number,
  body: unknown,
  scopes?: string[],
  headers: Record<string, string> = {},
): number {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(json),
    ...(scopes ? { "x-oauth-scopes": scopes.join(",") } : {}),
    ...headers,
  });
  res.end(json);
  // An answer withheld by a fault sent nothing.
  return res.headersSent ? status : 0;
}
