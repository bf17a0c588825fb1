import { inspect } from "node:util";
import { createSlackAdapter } from "@outbox/slack";
import { startSlackEmulator } from "@outbox/slack/testing";
import { afterEach, describe, expect, it, vi } from "vitest";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const e of open.splice(0)) await e.close();
});

describe("Slack: what reaches the integrator's logging", () => {
  it("a timed-out call's error, cause included, prints with console.error, util.inspect and String()", async () => {
    const e = await startSlackEmulator({ channels: [{ id: "C1" }], rateLimits: false });
    open.push(e);
    const adapter = createSlackAdapter({
      token: e.token,
      slackApiUrl: e.slackApiUrl,
      clientOptions: { timeout: 200 },
    });
    e.inject({ kind: "timeout-after-processed", method: "chat.postMessage" });
    const receipt = await adapter.send({ text: "late" }, { to: "C1" });
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
    expect(printed.join("\n")).toMatch(/time/i);
    expect(inspect(error, { depth: 10 })).not.toContain(e.token);
  });
});
