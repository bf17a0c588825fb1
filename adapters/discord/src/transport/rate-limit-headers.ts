/**
 * Discord's bucket state after each call, read from the `X-RateLimit-Remaining` and
 * `-Reset-After` headers of the response @discordjs/rest reports (its `response` event),
 * matched to the call by its request body. The transport hands it to the engine
 * (`SentMessage.rateLimit`), which holds the target until the reset: a burst never runs
 * into a 429, whichever of the client's per-bucket queues would send next.
 */
import type { SentMessage } from "@outbox/core";
import type { DiscordRestLike } from "../types.js";

type RateLimit = NonNullable<SentMessage["rateLimit"]>;

/** What the `response` event carries, as far as it is read here. */
interface ResponseEvent {
  data?: { body?: unknown };
}
interface ResponseLike {
  headers?: { get(name: string): string | null };
}

/** Collects bucket state per request body. */
export class RateLimitHeaders {
  private readonly seen = new WeakMap<object, RateLimit>();

  constructor(rest: DiscordRestLike) {
    rest.on?.("response", (request: ResponseEvent, response: ResponseLike) => {
      const key = request.data?.body;
      const remaining = response.headers?.get("x-ratelimit-remaining");
      const resetAfter = response.headers?.get("x-ratelimit-reset-after");
      if (typeof key !== "object" || key === null || remaining == null || resetAfter == null) return;
      const state = { remaining: Number(remaining), resetAfterMs: Math.ceil(Number(resetAfter) * 1000) };
      if (Number.isFinite(state.remaining) && Number.isFinite(state.resetAfterMs)) this.seen.set(key, state);
    });
  }

  /** The state reported for the call that sent `body`, once. */
  take(body: object): RateLimit | undefined {
    const state = this.seen.get(body);
    this.seen.delete(body);
    return state;
  }
}
