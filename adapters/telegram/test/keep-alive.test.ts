import { Api } from "grammy";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTelegramAdapter } from "../src/index.js";
import { startTelegramEmulator, type TelegramEmulator } from "../src/testing/index.js";

/** The emulator's clock: tests move it past its idle timeout instead of sleeping. */
let now = 0;
let emulator: TelegramEmulator;

async function start(): Promise<TelegramEmulator> {
  now = 0;
  emulator = await startTelegramEmulator({ rateLimits: false, idleTimeoutMs: 60_000, now: () => now });
  return emulator;
}

afterEach(() => emulator.close());

const texts = () => emulator.observe().map((m) => m.text);

describe("stale keep-alive sockets", () => {
  it("the scenario loses a message through a bare grammY client (the reset is ambiguous)", async () => {
    await start();
    const adapter = createTelegramAdapter({ client: new Api(emulator.token, { apiRoot: emulator.apiRoot }) });
    expect((await adapter.send({ text: "one" }, { to: "42" })).ok).toBe(true);
    now += 60_000;
    const late = await adapter.send({ text: "two" }, { to: "42" });
    expect(late.ok).toBe(false);
    expect(emulator.connections.staleResets).toBe(1);
    expect(texts()).toEqual(["one"]);
  });

  it("a reset on a reused socket is ambiguous and never resent: the client cannot know the server did not read it", async () => {
    await start();
    const adapter = createTelegramAdapter({
      token: emulator.token,
      apiRoot: emulator.apiRoot,
      keepAliveIdleMs: 600_000, // misconfigured: longer than the server's 60 s
      clock: { now: () => now, sleep: async () => {} },
    });
    expect((await adapter.send({ text: "one" }, { to: "42" })).ok).toBe(true);
    now += 60_000;
    const late = await adapter.send({ text: "two" }, { to: "42" });
    expect(late.failures[0]?.error).toMatchObject({ code: "transport_error", ambiguous: true });
    expect(emulator.connections.staleResets).toBe(1);
    expect(texts()).toEqual(["one"]);
  });

  it("never reuses a socket idle past keepAliveIdleMs on the adapter's clock: a server closing idle sockets loses nothing and duplicates nothing", async () => {
    await start();
    const adapter = createTelegramAdapter({
      token: emulator.token,
      apiRoot: emulator.apiRoot,
      keepAliveIdleMs: 30_000, // the agent's own timer would fire only after 30 real seconds
      clock: { now: () => now, sleep: async () => {} },
    });
    expect((await adapter.send({ text: "one" }, { to: "42" })).ok).toBe(true);
    now += 29_999;
    expect((await adapter.send({ text: "two" }, { to: "42" })).ok).toBe(true);
    expect(emulator.connections.opened).toBe(1);
    now += 60_000;
    const late = await adapter.send({ text: "three" }, { to: "42" });
    expect(late.ok).toBe(true);
    expect(emulator.connections).toMatchObject({ opened: 2, staleResets: 0 });
    expect(texts()).toEqual(["one", "two", "three"]);
  });

  it("closes an idle socket before the server would, so the next send opens a fresh one", async () => {
    await start();
    const adapter = createTelegramAdapter({
      token: emulator.token,
      apiRoot: emulator.apiRoot,
      keepAliveIdleMs: 50,
    });
    expect((await adapter.send({ text: "one" }, { to: "42" })).ok).toBe(true);
    await vi.waitFor(() => expect(emulator.connections.closed).toBe(1), { timeout: 10_000 });
    now += 60_000;
    expect((await adapter.send({ text: "two" }, { to: "42" })).ok).toBe(true);
    expect(emulator.connections).toMatchObject({ opened: 2, staleResets: 0 });
    expect(texts()).toEqual(["one", "two"]);
  });

  it("a reset on a fresh connection stays ambiguous (not retried by default)", async () => {
    await start();
    const adapter = createTelegramAdapter({ token: emulator.token, apiRoot: emulator.apiRoot });
    emulator.inject({ kind: "reset" });
    const receipt = await adapter.send({ text: "one" }, { to: "42" });
    expect(receipt.ok).toBe(false);
    expect(receipt.failures[0]?.error).toMatchObject({ code: "transport_error", ambiguous: true });
    expect(texts()).toEqual([]);
  });
});
