/**
 * The WhatsApp Cloud API emulator: a real HTTP server on 127.0.0.1 answering
 * `POST /{version}/{phone-number-id}/messages` and `/media` as Graph does (its error
 * envelope and codes, `wamid.` ids, Bearer auth), with strict validation, the 24-hour window,
 * throughput and pair-rate limits, fault injection, and every message decoded into an
 * `ObservedMessage` as the WhatsApp client shows it.
 */
import type { IncomingMessage } from "node:http";
import {
  type AnsweredFault,
  type EmulatorAnswer,
  type EmulatorRequest,
  type PlatformEmulator,
  serveEmulator,
} from "@outbox/core/testing";
import { Conversations } from "./conversations.js";
import { GraphApiError, invalidParameter } from "./graph-error.js";
import { postMessage } from "./messages.js";
import { RateLimits } from "./rate-limits.js";
import type { ObservedMessage, StoredMessage, WhatsAppEmulatorOptions } from "./types.js";
import { receiveUpload } from "./upload.js";

/**
 * One request the emulator answered: `method` is its Graph edge (`messages`, `media`, or the
 * path when it named neither); `content` a message's JSON body as sent, an upload's
 * `["file name"]` once received.
 */
export type { EmulatorRequest };

/** The Graph edges it answers, as a fault's `method` names them (`media` is the upload). */
export const WHATSAPP_FAULT_TARGETS: readonly string[] = ["messages", "media"];

/** A running emulator. */
export interface WhatsAppEmulator extends PlatformEmulator {
  /** Base URL for `graphApiUrl`. */
  readonly graphApiUrl: string;
  /** The access token it accepts. */
  readonly token: string;
  /** The business number's Phone number ID. */
  readonly phoneNumberId: string;
  /** What a person's WhatsApp client shows (every person when omitted), in order. */
  observe(to?: string): ObservedMessage[];
  /** Messages as stored (raw markup), the people's own included. */
  history(to?: string): StoredMessage[];
  /** Record a message the person sent (opens the 24-hour window); returns its `wamid.`. */
  seedMessage(from: string, text: string): string;
}

const DEFAULT_TOKEN = "EAAoutbox-emulator-token";
const DEFAULT_PHONE_NUMBER_ID = "100000000000001";
const MAX_JSON = 1024 * 1024;
const ROUTE = /^\/v\d+\.\d+\/([^/]+)\/(messages|media)$/;

/** Graph's error for an injected 429, 5xx or 400. */
function faultError(fault: AnsweredFault): GraphApiError {
  if (fault.kind === "server-error")
    return new GraphApiError(2, "Service temporarily unavailable", "Injected fault.", fault.status);
  if (fault.kind === "reject") return invalidParameter(fault.description);
  return new GraphApiError(130429, "Rate limit hit", "Injected fault: throughput reached.", 429, {
    "retry-after": String(fault.retryAfterMs / 1000),
  });
}

/** Graph's error envelope. */
function answerError(error: unknown): EmulatorAnswer {
  const graph =
    error instanceof GraphApiError
      ? error
      : new GraphApiError(1, "An unknown error occurred", String(error), 500);
  return { status: graph.status, body: graph.body(), headers: graph.headers };
}

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

  const server = await serveEmulator<EmulatorRequest>({
    faultTargets: WHATSAPP_FAULT_TARGETS,
    entry: (_req, url) => ({ method: ROUTE.exec(url.pathname)?.[2] ?? url.pathname, status: 0 }),
    jsonType: "application/json; charset=UTF-8",
    faultError,
    answerError,
    handle: async ({ req, url, entry, fault }) => {
      const route = ROUTE.exec(url.pathname);
      // A message's body is read before any fault, so a faulted request still shows what it carried.
      const raw = entry.method === "messages" && req.method === "POST" ? await readBody(req) : undefined;
      if (raw !== undefined) entry.content = raw;
      fault();
      if (req.method !== "POST" || !route)
        throw new GraphApiError(
          100,
          "Unsupported request",
          `Unsupported ${req.method} request to ${url.pathname}.`,
        );
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
        return { status: 200, body: uploaded };
      }
      const answer = postMessage(parseJson(req, raw ?? ""), ws, limits);
      // Meta answers first and fetches a link afterwards; answering after the fetch records the
      // same outcome, and what the client shows no longer depends on when a test looks.
      await options.links?.settled();
      return { status: 200, body: answer };
    },
  });

  return {
    ...server,
    graphApiUrl: server.url,
    token,
    phoneNumberId,
    observe: (to) => ws.observe(to?.replace(/\D/g, "")),
    history: (to) => ws.messages.filter((m) => to === undefined || m.waId === to.replace(/\D/g, "")),
    rateLimitRefusals: () => limits?.refusals ?? 0,
    seedMessage: (from, text) =>
      ws.store({ waId: from.replace(/\D/g, ""), type: "text", body: text, inbound: true }).id,
    close: async () => {
      await server.close();
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
