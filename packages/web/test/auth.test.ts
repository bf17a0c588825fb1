import { ConfigError } from "@outbox/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { conversationToken, createWebInboxApp } from "../src/index.js";
import { authed, createEmulatedChannel, type WebEmulatedChannel } from "./support.js";

let channel: WebEmulatedChannel;
let sha256: string;
beforeEach(async () => {
  channel = await createEmulatedChannel();
  await channel.adapter.send({ text: "for alice only" }, { to: "alice" });
  await channel.adapter.send(
    {
      text: "bob's file",
      media: [{ mimeType: "text/plain", data: new TextEncoder().encode("bob"), fileName: "b.txt" }],
    },
    { to: "bob" },
  );
  const bobEvents = await channel.inbox.store.list("bob");
  sha256 = bobEvents[0]?.message.media?.[0]?.sha256 as string;
});
afterEach(async () => {
  await channel.close();
});

const routes = () => ["", "events", `media/${sha256}`];

describe("auth", () => {
  it("no token, no messages: 401 on the page, the stream and media", async () => {
    for (const path of routes()) {
      const response = await fetch(`${channel.inbox.url}/c/bob/${path}`);
      expect(response.status, path).toBe(401);
      expect(await response.text()).not.toContain("bob");
    }
  });

  it("one conversation's token reads no other: 403 everywhere, by bearer, cookie or link", async () => {
    const alice = channel.inbox.tokenFor("alice");
    for (const path of routes()) {
      const bearer = await fetch(`${channel.inbox.url}/c/bob/${path}`, {
        headers: { Authorization: `Bearer ${alice}` },
      });
      expect(bearer.status, path).toBe(403);
    }
    const link = await fetch(`${channel.inbox.url}/c/bob/?token=${alice}`, { redirect: "manual" });
    expect(link.status).toBe(403);
    expect(link.headers.get("set-cookie")).toBeNull();
    // Alice's cookie, even renamed to Bob's cookie name, opens nothing of Bob's.
    const opened = await fetch(`${channel.inbox.url}/c/alice/?token=${alice}`, { redirect: "manual" });
    const aliceCookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const bobCookieName = (
      (
        await fetch(`${channel.inbox.url}/c/bob/?token=${channel.inbox.tokenFor("bob")}`, {
          redirect: "manual",
        })
      ).headers.get("set-cookie") ?? ""
    ).split("=")[0];
    const forged = `${bobCookieName}=${aliceCookie.split("=")[1]}`;
    expect((await fetch(`${channel.inbox.url}/c/bob/`, { headers: { cookie: forged } })).status).toBe(403);
    expect((await fetch(`${channel.inbox.url}/c/alice/`, { headers: { cookie: aliceCookie } })).status).toBe(
      200,
    );
  });

  it("a conversation's own token reads it, and its media", async () => {
    const page = await authed(channel, "", {}, "bob");
    expect(await page.text()).toMatch(/bob(&#39;|')s file/);
    expect((await authed(channel, `media/${sha256}`, {}, "bob")).status).toBe(200);
    // Alice, authenticated as herself, cannot fetch Bob's media by its hash.
    expect((await authed(channel, `media/${sha256}`, {}, "alice")).status).toBe(404);
  });

  it("tokens are HMACs of the conversation under the secret", () => {
    const secret = "s".repeat(32);
    expect(createWebInboxApp({ auth: { secret } }).tokenFor("x")).toBe(conversationToken(secret, "x"));
    expect(conversationToken(secret, "x")).not.toBe(conversationToken(secret, "y"));
    expect(conversationToken(secret, "x")).not.toBe(conversationToken(`${secret}!`, "x"));
  });

  it("refuses a missing or short secret with a ConfigError naming auth.secret and the fix", () => {
    expect(() => createWebInboxApp({ auth: { secret: "short" } })).toThrow(ConfigError);
    expect(() => createWebInboxApp({ auth: { secret: "short" } })).toThrow(
      /^the web inbox: `auth\.secret` is missing or shorter .*; fix: pass a random string/,
    );
  });
});
