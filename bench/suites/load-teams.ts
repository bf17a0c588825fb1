/**
 * The Teams load scenario's shape and floor. The connector limits each conversation four
 * ways at once (7 a second, 8 in 2 s, 60 in 30 s, 1,800 an hour) and the app to 50 a second;
 * the emulator enforces them as token buckets, as the adapter's pacer keeps to them. The
 * scenario sends enough to one conversation that the 60-in-30-s window binds (past 112 a
 * conversation it outlasts the 8-in-2-s one), so a pacer that knew only the short windows
 * would draw 429s; the hour's window cannot bind in a bench run, and the quick run, at 20 a
 * conversation, shows the 8-in-2-s window instead.
 */
import type { RateLimit } from "@outbox/core";
import { TEAMS_RATE_LIMITS } from "@outbox/teams";

/** Replies per conversation and conversations: 120 × 4 (floor 30 s), or 20 × 3 quick (floor 3 s). */
export const TEAMS_LOAD = {
  full: { perConversation: 120, chats: 4 },
  quick: { perConversation: 20, chats: 3 },
} as const;

/** The shortest time `rules` allow for `total` replies spread evenly over `chats`, and the rule that sets it. */
export function teamsFloor(
  total: number,
  chats: number,
  rules: readonly RateLimit[] = TEAMS_RATE_LIMITS,
): { ms: number; binding: string } {
  const perChat = Math.ceil(total / chats);
  let floor = { ms: 0, binding: "none" };
  for (const rule of rules) {
    const count = rule.scope === "global" ? total : perChat;
    const ms = (Math.max(0, count - (rule.burst ?? rule.limit)) * rule.intervalMs) / rule.limit;
    if (ms > floor.ms)
      floor = {
        ms,
        binding: `${rule.limit} per ${rule.intervalMs / 1000} s ${rule.scope === "global" ? "per app" : "per conversation"}`,
      };
  }
  return floor;
}
