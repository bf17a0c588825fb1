/**
 * Who a message event notifies, as a homeserver's push rules decide it. An event with
 * `m.mentions` is judged by it alone (`room: true` pings the room, `user_ids` those users;
 * `{}` nobody): the spec turns the legacy body rules off for it. Without it, the legacy rules
 * read the plain `body`: `@room` pings the whole room (when the sender's power level allows,
 * as a bot's usually does) and a user ID pings that user. The emulator applies both strictly.
 */
import type { ObservedMentions } from "@outbox/core";
import { observedMentions } from "@outbox/core/testing";
import { badJson } from "./api-error.js";

/** `@room` as the legacy `.m.rule.roomnotif` rule matches it (a whole word of the body). */
const ROOM = /(?:^|[^\w@])@room(?![\w:])/;
/** A user ID (`@localpart:server`) as `.m.rule.contains_user_name` would find its owner. */
const USER_ID = /@[a-z0-9._=/+-]+:[a-z0-9.-]+(?::\d+)?/gi;

/** The notifications of an event content (`undefined`: nobody), or 400 `M_BAD_JSON` for a malformed `m.mentions`. */
export function mentionsOf(content: Record<string, unknown>): ObservedMentions | undefined {
  const mentions = content["m.mentions"];
  if (mentions === undefined) return legacy(typeof content.body === "string" ? content.body : "");
  if (typeof mentions !== "object" || mentions === null || Array.isArray(mentions))
    throw badJson("m.mentions must be an object");
  const { room, user_ids: users } = mentions as Record<string, unknown>;
  if (room !== undefined && typeof room !== "boolean") throw badJson("m.mentions.room must be a boolean");
  if (users !== undefined && (!Array.isArray(users) || users.some((id) => typeof id !== "string")))
    throw badJson("m.mentions.user_ids must be an array of user ids");
  return observedMentions(room === true, (users as string[] | undefined) ?? []);
}

function legacy(body: string): ObservedMentions | undefined {
  return observedMentions(
    ROOM.test(body),
    [...body.matchAll(USER_ID)].map(([id]) => id),
  );
}
