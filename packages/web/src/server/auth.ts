/**
 * Conversation tokens: HMAC-SHA256(secret, conversation id), base64url. A token opens exactly
 * one conversation. The browser presents it once in the page URL (`?token=`); the server
 * answers with an HttpOnly, SameSite=Lax cookie named for that conversation and
 * redirects to the URL without the token, so it stays out of history and logs. Scripts and
 * servers may send `Authorization: Bearer <token>` instead.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { ConfigError } from "@outbox/core";
import type { WebInboxAuth } from "../types.js";

const MIN_SECRET = 32;

/** The token that opens `conversation` under `secret`. */
export function conversationToken(secret: string, conversation: string): string {
  return createHmac("sha256", secret).update(`outbox-web\u0000${conversation}`).digest("base64url");
}

/** Throws a `ConfigError` naming the field and the fix when the auth option is missing or weak. */
export function checkAuth(auth: WebInboxAuth | undefined): WebInboxAuth {
  if (typeof auth?.secret !== "string" || auth.secret.length < MIN_SECRET)
    throw new ConfigError(
      "the web inbox",
      `is missing or shorter than ${MIN_SECRET} characters (it signs each conversation's token)`,
      {
        field: "auth.secret",
        fix: `pass a random string of at least ${MIN_SECRET} characters, e.g. crypto.randomBytes(32).toString("hex")`,
      },
    );
  return auth;
}

/** Name of the cookie holding a conversation's token (one cookie per conversation). */
export function cookieName(conversation: string): string {
  return `ob_${createHash("sha256").update(conversation).digest("hex").slice(0, 16)}`;
}

/** `missing` (answer 401), `invalid` (403) or `ok` for a presented token. */
export function checkToken(
  secret: string,
  conversation: string,
  token: string | undefined,
): "missing" | "invalid" | "ok" {
  if (token === undefined || token === "") return "missing";
  const expected = Buffer.from(conversationToken(secret, conversation));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected) ? "ok" : "invalid";
}
