/**
 * The inbox as a Hono app: per conversation, the page (`c/<id>/`), its event stream
 * (`c/<id>/events`) and its media (`c/<id>/media/<sha256>`). Every route needs the
 * conversation's token (cookie or `Authorization: Bearer`): none → 401, another
 * conversation's or a forged one → 403. Links inside the page are relative, so the app can be
 * mounted under any path prefix.
 */
import { randomBytes } from "node:crypto";
import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import { checkEmbedPaths } from "../render/embed-policy.js";
import { createMemoryWebStore } from "../store/memory-store.js";
import type { WebMessageStore } from "../store/types.js";
import type { WebInboxOptions } from "../types.js";
import { createArticleCache } from "./article-cache.js";
import { checkAuth, checkToken, conversationToken, cookieName } from "./auth.js";
import { eventStream } from "./events.js";
import { COMMON_HEADERS, MEDIA_CSP, pageCsp } from "./headers.js";
import { mediaResponse } from "./media-route.js";
import { renderPage } from "./page.js";

/** The inbox app with the store it reads and a token minter. */
export interface WebInboxApp {
  /** The Hono app; mount it with `parent.route("/inbox", app)` or serve `app.fetch`. */
  app: Hono;
  /** The store it reads. */
  store: WebMessageStore;
  /** The token that opens a conversation (put it in the page URL as `?token=`). */
  tokenFor(conversation: string): string;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Build the inbox app. Throws a `ConfigError` when `auth.secret` is missing or short, or an `embedPaths` entry is not root-relative. */
export function createWebInboxApp(options: WebInboxOptions): WebInboxApp {
  const { secret } = checkAuth(options?.auth);
  const store = options.store ?? createMemoryWebStore();
  const title = options.title ?? "Outbox";
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const articles = createArticleCache(store, checkEmbedPaths(options.embedPaths));
  const app = new Hono();

  app.use(async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(COMMON_HEADERS)) c.res.headers.set(name, value);
  });

  /** The error answer for a refused token, or `undefined` when the request may proceed. */
  const refuse = (c: Context, conversation: string): Response | undefined => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1];
    const verdict = checkToken(secret, conversation, bearer ?? getCookie(c, cookieName(conversation)));
    if (verdict === "ok") return undefined;
    c.header("Content-Security-Policy", MEDIA_CSP);
    c.header("Cache-Control", "no-store");
    return verdict === "missing"
      ? c.text("This conversation needs its token: open the link you were given.", 401)
      : c.text("This token does not open this conversation.", 403);
  };

  app.get("/c/:conversation", (c) =>
    c.redirect(`${encodeURIComponent(c.req.param("conversation"))}/${new URL(c.req.url).search}`, 308),
  );

  app.get("/c/:conversation/", async (c) => {
    const conversation = c.req.param("conversation");
    const token = c.req.query("token");
    if (token !== undefined) {
      if (checkToken(secret, conversation, token) !== "ok") {
        c.header("Content-Security-Policy", MEDIA_CSP);
        return c.text("This token does not open this conversation.", 403);
      }
      // No Path attribute: the browser scopes the cookie to the directory of the URL it asked
      // for, `<mount>/c/<id>` (RFC 6265 §5.1.4), so only this conversation's routes receive
      // its token, wherever the host mounts the inbox; other routes of the host app never do.
      const secure = (options.secureCookie ?? false) ? "; Secure" : "";
      c.header("Set-Cookie", `${cookieName(conversation)}=${token}; HttpOnly; SameSite=Lax${secure}`, {
        append: true,
      });
      c.header("Cache-Control", "no-store");
      return c.redirect("./", 303);
    }
    const refused = refuse(c, conversation);
    if (refused) return refused;
    const events = await store.list(conversation);
    const byId = new Map(events.map((event) => [event.message.id, event.message]));
    const nonce = randomBytes(16).toString("base64");
    c.header("Content-Security-Policy", pageCsp(nonce));
    c.header("Cache-Control", "no-store");
    return c.html(
      renderPage({
        title,
        conversation,
        nonce,
        lastEventId: events.at(-1)?.id,
        articles: await Promise.all(events.map((event) => articles.render(event, byId))),
      }),
    );
  });

  app.get("/c/:conversation/events", (c) => {
    const conversation = c.req.param("conversation");
    return refuse(c, conversation) ?? eventStream(c, store, articles, conversation, keepAliveMs);
  });

  app.get("/c/:conversation/media/:sha256", async (c) => {
    const conversation = c.req.param("conversation");
    const refused = refuse(c, conversation);
    if (refused) return refused;
    const sha256 = c.req.param("sha256");
    const media = SHA256.test(sha256) ? await store.getMedia(conversation, sha256) : undefined;
    if (media === undefined) return c.text("No such media in this conversation.", 404);
    return mediaResponse(sha256, media, {
      range: c.req.header("Range") ?? null,
      ifNoneMatch: c.req.header("If-None-Match") ?? null,
    });
  });

  return { app, store, tokenFor: (conversation) => conversationToken(secret, conversation) };
}
