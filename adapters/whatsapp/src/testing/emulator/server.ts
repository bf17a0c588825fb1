/**
 * The WhatsApp Cloud API emulator: a real HTTP server on 127.0.0.1 answering
 * `POST /{version}/{phone-number-id}/messages` and `/media` as Graph does (its error
 * envelope and codes, `wamid.` ids, Bearer auth), with strict validation, the 24-hour window,
 * throughput and pair-rate limits, fault injection, and every message decoded into an
 * `ObservedMessage` as the WhatsApp client shows it.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serveFaults } from "@outbox/core";
import { Conversations } from "./conversations.js";
import { GraphApiError, invalidParameter } from "./graph-error.js";
import { postMessage } from "./messages.js";
import { RateLimits } from "./rate-limits.js";
import type { Fault, ObservedMessage, StoredMessage, WhatsAppEmulatorOptions } from "./types.js";
import { receiveUpload } from "./upload.js";

/** One request the emulator answered. */
export interface EmulatorRequest {
  /** `messages`, `media`, or the path when it named neither. */
  edge: string;
  /** HTTP status answered (0 for a dropped connection). */
  status: number;
  /** What it carried: a message's JSON body as sent, an upload's `["file name"]` once received. */
  content?: string;
}

/** A running emulator. */
export interface WhatsAppEmulator {
  /** Base URL for `graphApiUrl`. */
  readonly graphApiUrl: string;
  /** The access token it accepts. */
  readonly token: string;
  /** The business number's Phone number ID. */
  readonly phoneNumberId: string;
  /** Every request, in arrival order. */
  readonly requests: readonly EmulatorRequest[];
  /** What a person's WhatsApp client shows (every person when omitted), in order. */
  observe(to?: string): ObservedMessage[];
  /** Messages as stored (raw markup), the people's own included. */
  history(to?: string): StoredMessage[];
  /** Misbehave on the next call(s) (messages and uploads alike; a fault's `method` is `messages` or `media`). */
  inject(fault: Fault): void;
  /** 429s answered under the emulator's own limits (injected faults not counted). */
  rateLimitRefusals(): number;
  /** Connections reset by a `reset-before-write` fault before their request was written. */
  refusedConnections(): number;
  /** Record a message the person sent (opens the 24-hour window); returns its `wamid.`. */
  seedMessage(from: string, text: string): string;
  /** Stop the server and drop its connections. */
  close(): Promise<void>;
}

const DEFAULT_TOKEN = "EAAoutbox-emulator-token";
const DEFAULT_PHONE_NUMBER_ID = "100000000000001";
const MAX_JSON = 1024 * 1024;

/** Start an emulator on 127.0.0.1 with a random port. */
export async function startWhatsAppEmulator(
  options: WhatsAppEmulatorOptions = {},
): Promise<WhatsAppEmulator> {
  const token = options.token ?? DEFAULT_TOKEN;
  const phoneNumberId = options.phoneNumberId ?? DEFAULT_PHONE_NUMBER_ID;
  const now = options.now ?? (() => Date.now());
  const ws = new Conversations({
    ...(options.allowedRecipients
      ? { allowed: new Set(options.allowedRecipients.map((n) => n.replace(/\D/g, ""))) }
      : {}),
    windowMs: options.windowMs ?? 24 * 60 * 60 * 1000,
    now,
    ...(options.links ? { links: options.links } : {}),
  });
  const limits = options.limits === false ? undefined : new RateLimits(options.limits ?? {}, now);
  const requests: EmulatorRequest[] = [];

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    entry: EmulatorRequest,
  ): Promise<number> => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const route = /^\/v\d+\.\d+\/([^/]+)\/(messages|media)$/.exec(path);
    entry.edge = route?.[2] ?? path;
    // A message's body is read before any fault, so a faulted request still shows what it carried.
    const raw = entry.edge === "messages" && req.method === "POST" ? await readBody(req) : undefined;
    if (raw !== undefined) entry.content = raw;
    // Connection faults (reset before the request was written, the answer dropped or withheld
    // after processing) are core's serveFaults; the others are answered here.
    const fault = faults.next(entry.edge, req, res);
    if (fault?.kind === "reset") {
      req.socket.destroy();
      return 0;
    }
    if (fault?.kind === "rate-limit")
      throw new GraphApiError(130429, "Rate limit hit", "Injected fault: throughput reached.", 429, {
        "retry-after": String(fault.retryAfterMs / 1000),
      });
    if (fault?.kind === "server-error")
      throw new GraphApiError(2, "Service temporarily unavailable", "Injected fault.", fault.status);
    if (fault?.kind === "reject") throw invalidParameter(fault.description);
    if (req.method !== "POST" || !route)
      throw new GraphApiError(100, "Unsupported request", `Unsupported ${req.method} request to ${path}.`);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (bearer !== token)
      throw new GraphApiError(
        190,
        bearer === undefined ? "An access token is required" : "Invalid OAuth access token",
        "The access token could not be decrypted or is missing.",
        401,
      );
    if (route[1] !== phoneNumberId)
      throw new GraphApiError(
        100,
        "Unsupported post request",
        `Object with ID '${route[1]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      );
    if (route[2] === "media") {
      const uploaded = await receiveUpload(req, ws);
      entry.content = JSON.stringify([ws.media.get(uploaded.id)?.fileName]);
      return reply(res, 200, uploaded);
    }
    const answer = postMessage(parseJson(req, raw ?? ""), ws, limits);
    // Meta answers first and fetches a link afterwards; answering after the fetch records the
    // same outcome, and what the client shows no longer depends on when a test looks.
    await options.links?.settled();
    return reply(res, 200, answer);
  };

  const server = createServer((req, res) => {
    const entry: EmulatorRequest = { edge: "", status: 0 };
    requests.push(entry);
    handle(req, res, entry)
      .then((status) => {
        entry.status = status;
      })
      .catch((error: unknown) => {
        const graph =
          error instanceof GraphApiError
            ? error
            : new GraphApiError(1, "An unknown error occurred", String(error), 500);
        if (!req.complete) req.resume();
        entry.status = reply(res, graph.status, graph.body(), graph.headers);
      });
  });
  const faults = serveFaults(server, ["messages", "media"]);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    graphApiUrl: base,
    token,
    phoneNumberId,
    requests,
    observe: (to) => ws.observe(to?.replace(/\D/g, "")),
    history: (to) => ws.messages.filter((m) => to === undefined || m.waId === to.replace(/\D/g, "")),
    inject: (fault) => faults.inject(fault),
    rateLimitRefusals: () => limits?.refusals ?? 0,
    refusedConnections: () => faults.refusedConnections,
    seedMessage: (from, text) =>
      ws.store({ waId: from.replace(/\D/g, ""), type: "text", body: text, inbound: true }).id,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await options.links?.close();
    },
  };
}

/** The request body as text (at most {@link MAX_JSON} bytes). */
async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON) throw invalidParameter("The request body is too large.");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(req: IncomingMessage, body: string): Record<string, unknown> {
  if (!/^application\/json/i.test(req.headers["content-type"] ?? ""))
    throw invalidParameter("The request body must be application/json.");
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw invalidParameter("The request body is not a JSON object.");
}

function reply(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): number {
  if (res.headersSent) return res.statusCode;
  const json = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=UTF-8",
    "content-length": Buffer.byteLength(json),
    ...headers,
  });
  res.end(json);
  // An answer a fault dropped or withheld never ended.
  return res.writableEnded ? status : 0;
}
