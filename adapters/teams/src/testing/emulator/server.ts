/**
 * The Teams emulator: the Bot Framework connector (`POST /v3/conversations/{id}/activities`,
 * `PUT` and `DELETE …/activities/{activityId}`) as a real HTTP server on 127.0.0.1, beside
 * the identity platform's token endpoint on a host of its own and a media host Teams fetches
 * from. Strict: the token must be one the identity platform issued for the connector's scope
 * and not expired; conversations, threads and membership are checked; activities are checked
 * and decoded (emulator/activities.ts); the connector's per-conversation rate limits answer
 * 429 with `Retry-After`; faults are injected by the kit; edits keep revisions.
 */
import type { IncomingMessage } from "node:http";
import { type MediaHost, type ObservedMessage, undiciAgent } from "@outbox/core";
import {
  type EmulatorRequest,
  type PlatformEmulator,
  serveEmulator,
  startEmulatedMediaHost,
} from "@outbox/core/testing";
import { TEAMS_RATE_LIMITS } from "../../capabilities.js";
import { checkSize, readAttachments, readText } from "./activities.js";
import { answerError, badArgument, ConnectorError, faultError } from "./errors.js";
import { startIdentity } from "./identity.js";
import { RateLimits } from "./rate-limits.js";
import { TeamsStore } from "./store.js";
import type { EmulatedConversation, StoredActivity, TeamsEmulatorOptions } from "./types.js";

/** The connector operations it answers, as a fault's `method` names them. */
export const TEAMS_FAULT_TARGETS: readonly string[] = [
  "sendToConversation",
  "updateActivity",
  "deleteActivity",
];

/** A running emulator. */
export interface TeamsEmulator extends PlatformEmulator {
  /** The connector's base URL, for `serviceUrl`. */
  readonly serviceUrl: string;
  /** The token endpoint, for `tokenUrl`. */
  readonly tokenUrl: string;
  /** The bot's app id, secret and tenant the identity platform knows. */
  readonly clientId: string;
  readonly clientSecret: string;
  readonly tenantId: string;
  /** A media host on 127.0.0.1 this emulator fetches from, for the adapter's `media.host`. */
  readonly mediaHost: MediaHost;
  /** Every URL Teams fetched for a linked attachment, in order. */
  readonly urlFetches: readonly string[];
  /** What the Teams client shows of a conversation (every one when omitted), in order. */
  observe(conversation?: string): ObservedMessage[];
  /** Activities as stored, the person's own included. */
  history(conversation?: string): StoredActivity[];
  /** Add a conversation. */
  addConversation(conversation: EmulatedConversation): void;
  /** Record a message the person sent; returns its activity id. */
  seedMessage(conversation: string, text: string): string;
  /** Tokens the identity platform issued. */
  tokensIssued(): number;
  /** Expire every token issued so far (the connector then answers 401 to them). */
  expireTokens(): void;
}

/** The bot identity the emulator's identity platform knows unless told otherwise. */
export const EMULATOR_IDENTITY = {
  clientId: "00000000-0000-4000-8000-00000000b075",
  clientSecret: "emulator~client~secret~0123456789abcdef",
  tenantId: "00000000-0000-4000-8000-0000007e4a47",
} as const;

const MAX_BODY = 4 * 1024 * 1024;
const ROUTE = /^\/teams\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/;

/** Start an emulator on 127.0.0.1 with random ports. */
export async function startTeamsEmulator(options: TeamsEmulatorOptions = {}): Promise<TeamsEmulator> {
  const now = options.now ?? (() => Date.now());
  const clientId = options.clientId ?? EMULATOR_IDENTITY.clientId;
  const clientSecret = options.clientSecret ?? EMULATOR_IDENTITY.clientSecret;
  const tenantId = options.tenantId ?? EMULATOR_IDENTITY.tenantId;
  const identity = await startIdentity({
    clientId,
    clientSecret,
    tenantId,
    lifetimeMs: options.tokenLifetimeMs ?? 3_600_000,
    now,
  });
  const hosted = await startEmulatedMediaHost();
  const fetcher = undiciAgent({
    keepAliveTimeout: 1000,
    ...(options.fetchConnect ? { connect: { ...options.fetchConnect } } : {}),
  });
  const urlFetches: string[] = [];
  const store = new TeamsStore(options.conversations ?? []);
  const limits =
    options.rateLimits === false ? undefined : new RateLimits(options.rateLimits ?? TEAMS_RATE_LIMITS, now);

  const server = await serveEmulator<EmulatorRequest>({
    faultTargets: TEAMS_FAULT_TARGETS,
    entry: (req, url) => ({ method: methodOf(req.method, ROUTE.exec(url.pathname)), status: 0 }),
    faultError,
    answerError,
    body: {
      reads: (method) => method === "POST" || method === "PUT",
      maxBytes: MAX_BODY,
      tooLarge: () => new ConnectorError(413, "MessageSizeTooBig", "The request body is too large."),
    },
    authenticate: (bearer) => {
      if (bearer === undefined || !identity.accepts(bearer))
        throw new ConnectorError(401, "Unauthorized", "Authorization has been denied for this request.");
    },
    handle: async ({ req, url, entry, body: raw }) => {
      const route = ROUTE.exec(url.pathname);
      if (route === null || !TEAMS_FAULT_TARGETS.includes(entry.method))
        throw new ConnectorError(404, "NotFound", `No route for ${req.method} ${url.pathname}.`);
      const pathId = decodeURIComponent(route[1] ?? "");
      if (entry.method !== "sendToConversation" && pathId.includes(";messageid="))
        throw badArgument("an activity is changed through its conversation id, without ;messageid=");
      const where = store.resolve(pathId);
      limits?.take(where.conversation);
      if (entry.method === "deleteActivity") {
        store.own(where.conversation, decodeURIComponent(route[2] ?? "")).deleted = true;
        return { status: 200 };
      }
      const activity = parseJson(req, raw ?? "");
      checkSize(raw ?? "");
      if (activity.type !== "message") throw badArgument('activity.type must be "message"');
      const text = readText(activity);
      if (entry.method === "updateActivity") {
        const stored = store.own(where.conversation, decodeURIComponent(route[2] ?? ""));
        if (text === undefined || stored.observed.kind !== "text")
          throw badArgument("only a text message is edited here, with text");
        const revisions = [...(stored.observed.revisions ?? []), stored.observed.text ?? ""];
        stored.observed = { ...text, ...(where.thread ? { thread: where.thread } : {}), revisions };
        stored.activity = activity;
        return { status: 200, body: { id: stored.id } };
      }
      const shown = [
        ...(text === undefined ? [] : [text]),
        ...(await readAttachments(activity, { dispatcher: fetcher, fetched: urlFetches })),
      ];
      if (shown.length === 0) throw badArgument("the activity has neither text nor attachments");
      const ids = shown.map((observed) => {
        const id = store.newId();
        store.add({
          id,
          conversation: where.conversation,
          ...(where.thread ? { thread: where.thread } : {}),
          activity,
          observed: { ...observed, ...(where.thread ? { thread: where.thread } : {}) },
        });
        return id;
      });
      // Text with attachments shows as two messages, and the connector answers no id for them.
      return { status: 201, body: ids.length === 1 ? { id: ids[0] } : {} };
    },
  });

  return {
    ...server,
    serviceUrl: `${server.url}/teams/`,
    tokenUrl: identity.tokenUrl,
    clientId,
    clientSecret,
    tenantId,
    mediaHost: hosted.host,
    urlFetches,
    observe: (conversation) => store.observe(conversation),
    history: (conversation) =>
      store.activities.filter((a) => conversation === undefined || a.conversation === conversation),
    rateLimitRefusals: () => limits?.refusals ?? 0,
    addConversation: (conversation) => store.addConversation(conversation),
    seedMessage: (conversation, text) => {
      const id = store.newId();
      store.add({
        id,
        conversation,
        activity: { type: "message", text },
        observed: { kind: "text", text },
        inbound: true,
      });
      return id;
    },
    tokensIssued: () => identity.issued(),
    expireTokens: () => identity.expireAll(),
    close: async () => {
      await server.close();
      await identity.close();
      await hosted.close();
      await fetcher.close();
    },
  };
}

/** The fault target a request goes by. */
function methodOf(verb: string | undefined, route: RegExpExecArray | null): string {
  if (route === null) return "unknown";
  if (verb === "POST") return route[2] === undefined ? "sendToConversation" : "replyToActivity";
  if (verb === "PUT" && route[2] !== undefined) return "updateActivity";
  if (verb === "DELETE" && route[2] !== undefined) return "deleteActivity";
  return `${verb} activities`;
}

function parseJson(req: IncomingMessage, body: string): Record<string, unknown> {
  if (!/^application\/json/i.test(req.headers["content-type"] ?? ""))
    throw badArgument("The request body must be application/json.");
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw badArgument("The request body is not a JSON object.");
}
