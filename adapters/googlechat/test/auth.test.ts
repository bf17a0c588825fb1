/**
 * The token: a JWT signed with the service account's key and exchanged at the key's
 * `token_uri` (the emulator verifies signature, issuer, audience and scope), fetched once and
 * shared, kept until shortly before it expires, fetched again once on a 401; refusals as
 * `AuthError`s that never carry the key, an assertion or a token; a bad key a `ConfigError`
 * before any call.
 */
import { generateKeyPairSync } from "node:crypto";
import { inspect } from "node:util";
import { AuthError, ConfigError } from "@outbox/core";
import { startCredentialEcho } from "@outbox/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createGoogleChatAdapter, type GoogleChatAdapterConfig } from "../src/index.js";
import {
  emulatorConfig,
  type GoogleChatEmulatorOptions,
  startGoogleChatEmulator,
} from "../src/testing/index.js";

const SPACE = "spaces/AUTHtest";
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const e of open.splice(0).reverse()) await e.close();
});

async function setup(options: GoogleChatEmulatorOptions = {}, config: Partial<GoogleChatAdapterConfig> = {}) {
  const e = await startGoogleChatEmulator({ spaces: [{ name: SPACE }], ...options });
  open.push(e);
  const adapter = createGoogleChatAdapter({ ...emulatorConfig(e), retry: { maxRetries: 0 }, ...config });
  open.push({ close: async () => adapter.close?.() });
  return { e, adapter };
}

describe("Google Chat token", () => {
  it("signs one JWT the token endpoint verifies, and shares its token among concurrent sends", async () => {
    const { e, adapter } = await setup();
    const receipts = await Promise.all([1, 2, 3].map((n) => adapter.send({ text: `n${n}` }, { to: SPACE })));
    expect(receipts.map((r) => r.ok)).toEqual([true, true, true]);
    expect(e.tokensIssued()).toBe(1);
  });

  it("fetches a new token once when the API answers 401, and the send goes through", async () => {
    const { e, adapter } = await setup();
    await adapter.send({ text: "first" }, { to: SPACE });
    e.expireTokens();
    const receipt = await adapter.send({ text: "second" }, { to: SPACE });
    expect(receipt.ok).toBe(true);
    expect(e.tokensIssued()).toBe(2);
  });

  it("renews a token shortly before it expires, on the injected clock", async () => {
    let now = Date.now();
    const clock = { now: () => now, sleep: async () => {} };
    const { e, adapter } = await setup({ now: () => now }, { clock });
    await adapter.send({ text: "one" }, { to: SPACE });
    now += 3_600_000 - 4 * 60 * 1000;
    await adapter.send({ text: "two" }, { to: SPACE });
    expect(e.tokensIssued()).toBe(2);
  });

  it("a key Google does not know is an AuthError naming invalid_grant, with no key, assertion or token in it", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const e = await startGoogleChatEmulator({ spaces: [{ name: SPACE }] });
    open.push(e);
    const config = emulatorConfig(e);
    const adapter = createGoogleChatAdapter({
      ...config,
      credentials: {
        ...(config.credentials as object),
        private_key: pem,
      } as GoogleChatAdapterConfig["credentials"] & object,
      retry: { maxRetries: 0 },
    });
    open.push({ close: async () => adapter.close?.() });
    const receipt = await adapter.send({ text: "hi" }, { to: SPACE });
    const error = receipt.failures[0]?.error;
    expect(error).toBeInstanceOf(AuthError);
    expect(error?.message).toMatch(/invalid_grant \(Invalid JWT Signature\.\)/);
    const shown = inspect(receipt, { depth: 10 });
    expect(shown).not.toContain("PRIVATE KEY");
    expect(shown).not.toMatch(/eyJhbGciOiJSUzI1NiIs/);
    expect(e.requests).toEqual([]);
  });

  it("refuses a missing or unreadable key before any call, naming the field and never the key", () => {
    expect(() => createGoogleChatAdapter({})).toThrow(ConfigError);
    expect(() => createGoogleChatAdapter({ credentials: "{not json" })).toThrow(/credentials` is not JSON/);
    const secret = "-----BEGIN PRIVATE KEY-----\nMIIsecretsecretsecret\n-----END PRIVATE KEY-----\n";
    let thrown: unknown;
    try {
      createGoogleChatAdapter({
        credentials: { client_email: "a@b.iam.gserviceaccount.com", private_key: secret },
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(String((thrown as Error).message)).toMatch(/credentials\.private_key/);
    expect(inspect(thrown, { depth: 10 })).not.toContain("MIIsecret");
    expect(() => createGoogleChatAdapter({ getToken: async () => "t", apiUrl: "ftp://x" })).toThrow(/apiUrl/);
  });
});

describe("Google Chat: a proxy's error page that echoes the token", () => {
  it("no part of the token reaches the receipt", async () => {
    const proxy = await startCredentialEcho();
    open.push({ close: async () => proxy.close() });
    const { e } = await setup();
    const adapter = createGoogleChatAdapter({
      ...emulatorConfig(e),
      apiUrl: proxy.url,
      retry: { maxRetries: 0 },
    });
    open.push({ close: async () => adapter.close?.() });
    const receipt = await adapter.send({ text: "hi" }, { to: SPACE });
    expect(receipt.ok).toBe(false);
    const shown = `${inspect(receipt, { depth: 10 })}\n${receipt.failures[0]?.error.message}`;
    expect(shown).toMatch(/<redacted>/);
    expect(shown).not.toMatch(/ya29\.emulator-[A-Za-z0-9_-]{8}/);
  });
});
