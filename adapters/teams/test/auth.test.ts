/**
 * The token: fetched once and shared, kept until shortly before it expires, fetched again
 * once on a 401; the identity platform's refusals as `AuthError`s that never carry the secret
 * or a token; an integrator's own token source.
 */
import { inspect } from "node:util";
import { AuthError, ConfigError } from "@outbox/core";
import { type CredentialEcho, startCredentialEcho } from "@outbox/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createTeamsAdapter, type TeamsAdapterConfig } from "../src/index.js";
import { emulatorConfig, startTeamsEmulator, type TeamsEmulatorOptions } from "../src/testing/index.js";

const CHAT = "a:1auth-test";
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const e of open.splice(0).reverse()) await e.close();
});

async function setup(options: TeamsEmulatorOptions = {}, config: Partial<TeamsAdapterConfig> = {}) {
  const e = await startTeamsEmulator({ conversations: [{ id: CHAT }], ...options });
  open.push(e);
  const adapter = createTeamsAdapter({ ...emulatorConfig(e), retry: { maxRetries: 0 }, ...config });
  open.push({ close: async () => adapter.close?.() });
  return { e, adapter };
}

describe("Teams token", () => {
  it("fetches one token for concurrent sends and reuses it", async () => {
    const { e, adapter } = await setup();
    const receipts = await Promise.all([1, 2, 3].map((n) => adapter.send({ text: `n${n}` }, { to: CHAT })));
    expect(receipts.map((r) => r.ok)).toEqual([true, true, true]);
    await adapter.send({ text: "later" }, { to: CHAT });
    expect(e.tokensIssued()).toBe(1);
  });

  it("fetches a new token once when the connector answers 401, and the send goes through", async () => {
    const { e, adapter } = await setup();
    await adapter.send({ text: "first" }, { to: CHAT });
    e.expireTokens();
    const receipt = await adapter.send({ text: "second" }, { to: CHAT });
    expect(receipt.ok).toBe(true);
    expect(e.tokensIssued()).toBe(2);
    expect(e.observe(CHAT).map((m) => m.text)).toEqual(["first", "second"]);
  });

  it("renews a token shortly before it expires, without waiting for a 401", async () => {
    let now = 1_000_000;
    const clock = { now: () => now, sleep: async () => {} };
    const { e, adapter } = await setup({ tokenLifetimeMs: 3_600_000, now: () => now }, { clock });
    await adapter.send({ text: "one" }, { to: CHAT });
    now += 3_600_000 - 4 * 60 * 1000;
    await adapter.send({ text: "two" }, { to: CHAT });
    expect(e.tokensIssued()).toBe(2);
    expect(e.requests.map((r) => r.status)).toEqual([201, 201]);
  });

  it("a wrong secret is an AuthError naming the AADSTS code, with neither the secret nor a token in it", async () => {
    const wrong = "wrong~secret~value~that~must~never~show~0123";
    const { adapter } = await setup({}, { clientSecret: wrong });
    const receipt = await adapter.send({ text: "hi" }, { to: CHAT });
    const error = receipt.failures[0]?.error;
    expect(error).toBeInstanceOf(AuthError);
    expect(error?.message).toMatch(/AADSTS7000215/);
    expect(inspect(receipt, { depth: 10 })).not.toContain(wrong);
  });

  it("an integrator's token source is asked again with refresh: true after a 401", async () => {
    const asked: boolean[] = [];
    const e = await startTeamsEmulator({ conversations: [{ id: CHAT }] });
    open.push(e);
    const { clientSecret: _secret, clientId: _id, ...rest } = emulatorConfig(e);
    let stale = "not-a-token-the-connector-knows";
    const adapter = createTeamsAdapter({
      ...rest,
      async getToken({ refresh }) {
        asked.push(refresh);
        if (!refresh) return stale;
        const response = await fetch(e.tokenUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "client_credentials",
            client_id: e.clientId,
            client_secret: e.clientSecret,
            scope: "https://api.botframework.com/.default",
          }),
        });
        stale = ((await response.json()) as { access_token: string }).access_token;
        return stale;
      },
    });
    open.push({ close: async () => adapter.close?.() });
    const receipt = await adapter.send({ text: "hi" }, { to: CHAT });
    expect(receipt.ok).toBe(true);
    expect(asked).toEqual([false, true]);
  });

  it("refuses a config without credentials or service URL before any call", () => {
    expect(() => createTeamsAdapter({ serviceUrl: "https://smba.trafficmanager.net/teams/" })).toThrow(
      ConfigError,
    );
    expect(() => createTeamsAdapter({ serviceUrl: "", clientId: "a", clientSecret: "b" })).toThrow(
      /serviceUrl/,
    );
    expect(() => createTeamsAdapter({ serviceUrl: "ftp://x", clientId: "a", clientSecret: "b" })).toThrow(
      /serviceUrl` is not an http/,
    );
  });
});

describe("Teams: a proxy's error page that echoes the token", () => {
  let proxy: CredentialEcho | undefined;
  afterEach(() => proxy?.close());

  it("no part of the token or the secret reaches the receipt", async () => {
    proxy = await startCredentialEcho();
    const e = await startTeamsEmulator({ conversations: [{ id: CHAT }] });
    open.push(e);
    const adapter = createTeamsAdapter({
      ...emulatorConfig(e),
      serviceUrl: `${proxy.url}/teams/`,
      retry: { maxRetries: 0 },
    });
    open.push({ close: async () => adapter.close?.() });
    const receipt = await adapter.send({ text: "hi" }, { to: CHAT });
    expect(receipt.ok).toBe(false);
    const shown = `${inspect(receipt, { depth: 10 })}\n${receipt.failures[0]?.error.message}`;
    expect(shown).toMatch(/<redacted>/);
    expect(shown).not.toContain(e.clientSecret);
    expect(shown).not.toMatch(/eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9\.[A-Za-z0-9_-]{8}/);
  });
});
