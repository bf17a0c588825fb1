import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDiscordAdapter } from "../src/index.js";
import { DEFAULT_CHANNEL, type DiscordEmulator, startDiscordEmulator } from "../src/testing/index.js";

let emulator: DiscordEmulator | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await emulator?.close();
});

describe("Discord: what reaches the integrator's logging", () => {
  it("a timed-out call's error, cause included, prints with console.error, util.inspect and String()", async () => {
    emulator = await startDiscordEmulator({ messageBucket: false, channels: [{ id: DEFAULT_CHANNEL }] });
    const adapter = createDiscordAdapter({
      token: emulator.token,
      api: `${emulator.api}/`,
      timeoutMs: 200,
      retry: { maxRetries: 0 },
    });
    emulator.inject({ kind: "timeout-after-processed", method: "POST /channels/:id/messages" });
    const receipt = await adapter.send({ text: "late" }, { to: DEFAULT_CHANNEL });
    const error = receipt.failures[0]?.error as Error & { cause?: unknown };
    expect(error).toBeInstanceOf(Error);
    const printed: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      printed.push(args.map((arg) => inspect(arg)).join(" "));
    });
    expect(() => console.error(error)).not.toThrow();
    expect(() => inspect(error, { depth: 10 })).not.toThrow();
    let chain: unknown = error;
    while (chain instanceof Error) {
      expect(() => String(chain)).not.toThrow();
      chain = chain.cause;
    }
    expect(printed.join("\n")).toMatch(/abort|time/i);
    expect(inspect(error, { depth: 10 })).not.toContain(emulator.token);
  });
});
