/**
 * Whom a message's content pings, as Discord decides it under `allowed_mentions`: without
 * that field every `@everyone`, `@here`, `<@user>` and `<@&role>` in the content pings; with
 * it, only the kinds `parse` names and the ids `users` / `roles` list. A mention escaped with
 * a backslash (`\<@1>`) is text.
 */
import type { ObservedMentions } from "@outbox/core";
import { observedMentions } from "@outbox/core/testing";

const EVERYONE = /@(?:everyone|here)\b/;
const USER = /(?<!\\)<@!?(\d+)>/g;
const ROLE = /(?<!\\)<@&(\d+)>/g;

interface Allowed {
  parse?: string[];
  users?: string[];
  roles?: string[];
}

/** Whom `content` pings under `allowedMentions` (already checked by `checkMentions`); `undefined` when nobody. */
export function discordMentions(content: string, allowedMentions: unknown): ObservedMentions | undefined {
  const allowed = allowedMentions as Allowed | undefined;
  const parses = (kind: string) => allowed === undefined || (allowed.parse ?? []).includes(kind);
  const listed = (kind: "users" | "roles", id: string) => (allowed?.[kind] ?? []).includes(id);
  const everyone = parses("everyone") && EVERYONE.test(content);
  const users = new Set<string>();
  for (const [, id = ""] of content.matchAll(USER)) if (parses("users") || listed("users", id)) users.add(id);
  for (const [, id = ""] of content.matchAll(ROLE)) if (parses("roles") || listed("roles", id)) users.add(id);
  return observedMentions(everyone, users);
}
