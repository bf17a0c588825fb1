/**
 * The REST client the adapter sends through: one it builds from a token (own undici
 * `Agent`, streaming strategy, no retries of its own, every rate limit handed to the
 * engine), or the caller's `REST` / discord.js `Client` (its `rest`).
 */
import { type RateLimitData, REST } from "@discordjs/rest";
import { ConfigError } from "@outbox/core";
import { Agent } from "undici";
import type { DiscordAdapterConfig, DiscordRestLike } from "../types.js";
import { streamingRequest } from "./make-request.js";

/** What the adapter holds: the client, and how to release what it created itself. */
export interface DiscordRest {
  /** The client. */
  rest: DiscordRestLike;
  /** Whether the adapter built it (then it streams uploads and owns the agent). */
  owned: boolean;
  /** Close the adapter's own agent (nothing for a caller's client). */
  close(): Promise<void>;
}

/**
 * Hand every rate limit to the engine instead of waiting inside the client: the engine
 * waits (on its clock), bounded by `retry.maxRetries` and `maxRetryWaitMs`, so a 429 that
 * never ends cannot hold a send forever.
 */
export const rejectEveryRateLimit = (_data: RateLimitData): boolean => true;

/**
 * Build or adopt the REST client. Throws a `ConfigError` when no credential is given, or when
 * the caller's client has no `rejectOnRateLimit` policy.
 */
export function createDiscordRest(config: DiscordAdapterConfig): DiscordRest {
  const given = config.rest ?? config.client?.rest;
  if (given) {
    // A client without a policy waits out every 429 itself, without end, beyond the engine's
    // bounds; the caller's client is theirs, so it is refused rather than changed.
    if (given.options.rejectOnRateLimit === null || given.options.rejectOnRateLimit === undefined)
      throw new ConfigError(
        "createDiscordAdapter",
        "is unset, so that client would wait out every 429 itself, without end",
        {
          field: config.rest ? "rest.options.rejectOnRateLimit" : "client.rest.options.rejectOnRateLimit",
          fix: "create it with rejectOnRateLimit: () => true (new REST({ rejectOnRateLimit: () => true }), or new Client({ rest: { rejectOnRateLimit: () => true } })) so the engine bounds the waits, or pass `token` and let the adapter build its own client",
        },
      );
    return { rest: given, owned: false, close: async () => {} };
  }
  if (!config.token)
    throw new ConfigError("createDiscordAdapter", "is missing, and neither `rest` nor `client` was given", {
      field: "token",
      fix: "pass `token` (the bot token, e.g. process.env.OUTBOX_DISCORD_TOKEN), `rest` (a @discordjs/rest REST) or `client` (a discord.js Client)",
    });
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 16 });
  const rest = new REST({
    api: (config.api ?? "https://discord.com/api").replace(/\/+$/, ""),
    version: "10",
    agent,
    makeRequest: streamingRequest(agent),
    retries: 0,
    offset: 0, // the engine's retry waits are exactly the platform's Retry-After
    // The engine's pacer keeps Discord's 50/s (capabilities.rateLimits); a second limiter
    // here would only turn its waits into rejections. A global 429 still holds every route.
    globalRequestsPerSecond: Number.POSITIVE_INFINITY,
    timeout: config.timeoutMs ?? 60_000,
    rejectOnRateLimit: rejectEveryRateLimit,
  }).setToken(config.token);
  return {
    rest,
    owned: true,
    close: async () => {
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
      await agent.close();
    },
  };
}
