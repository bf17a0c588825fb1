import { inspect } from "node:util";
import { createSlackAdapter } from "@outbox/slack";
import { startSlackEmulator } from "@outbox/slack/testing";
import { LogLevel } from "@slack/web-api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { redactingLogger } from "../src/transport/redacting-logger.js";

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

/** Everything the console printed while `run` ran, each call's arguments inspected. */
async function printedDuring(run: () => Promise<unknown>): Promise<{ printed: string; result: unknown }> {
  const lines: string[] = [];
  for (const method of ["debug", "info", "warn", "error", "log"] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 10 }))).join(" "));
    });
  const result = await run();
  vi.restoreAllMocks();
  return { printed: lines.join("\n"), result };
}

/** The parts of a token long enough to identify it. */
const fragments = (token: string) => [token, token.slice(0, 12), token.slice(-12)];

describe("Slack: a proxy or Slack echoing the token", () => {
  it("the WebClient's log lines, the receipt and the error carry no part of it", async () => {
    const e = await startSlackEmulator({ channels: [{ id: "C1" }], rateLimits: false });
    open.push(e);
    // A proxy in front of Slack that answers with the request's own Authorization header,
    // as Slack's response_metadata messages and a misconfigured proxy can.
    const echoing = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const auth = new Headers(init?.headers).get("authorization") ?? "";
      const bare = auth.replace(/^Bearer /, "");
      if (String(url).includes("chat.postMessage"))
        return Response.json({
          ok: false,
          error: "invalid_auth",
          response_metadata: {
            messages: [`[ERROR] token ${bare} is not allowed`, `[WARN] sent with ${auth}`],
          },
        });
      if (String(url).includes("/upload/"))
        return new Response(`<html><body>${"x".repeat(170)} credential ${bare}</body></html>`, {
          status: 502,
          headers: { "content-type": "text/html" },
        });
      return fetch(url, init);
    };
    const adapter = createSlackAdapter({
      token: e.token,
      slackApiUrl: e.slackApiUrl,
      clientOptions: { fetch: echoing as never, logLevel: "debug" as never },
    });
    const text = await printedDuring(() => adapter.send({ text: "hi" }, { to: "C1" }));
    const file = await printedDuring(() =>
      adapter.send(
        { text: "", media: [{ mimeType: "text/plain", data: Buffer.from("x"), fileName: "a.txt" }] },
        { to: "C1" },
      ),
    );
    const receipts = [text.result, file.result] as Array<Awaited<ReturnType<typeof adapter.send>>>;
    expect(receipts.map((r) => r.ok)).toEqual([false, false]);
    expect(text.printed, "the WebClient did log the echoed messages").toMatch(/is not allowed/);
    const shown = [
      text.printed,
      file.printed,
      ...receipts.flatMap((r) => r.failures.map((f) => inspect(f.error, { depth: 10 }))),
      JSON.stringify(receipts, (_key, value: unknown) =>
        value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
      ),
    ].join("\n");
    for (const fragment of fragments(e.token)) expect(shown).not.toContain(fragment);
  });
});

describe("Slack: the default console logger", () => {
  it("formats no line its level drops, and still redacts the lines it prints", () => {
    const token = "xoxb-1111111111-2222222222-abcdefghijklmnopqrstuvwx";
    const logger = redactingLogger([token]);
    let formatted = 0;
    const value = {
      [inspect.custom]: () => {
        formatted += 1;
        return `holding ${token}`;
      },
    };
    const printed: string[] = [];
    for (const method of ["debug", "info", "warn", "error"] as const)
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        printed.push(args.join(" "));
      });
    logger.debug("request body", value);
    logger.info(value);
    expect(formatted, "a dropped line is never inspected nor redacted").toBe(0);
    expect(printed).toEqual([]);
    logger.error("failed", value);
    logger.setLevel(LogLevel.DEBUG);
    logger.debug(`sent ${token}`);
    expect(formatted).toBe(1);
    expect(printed).toHaveLength(2);
    expect(printed.join("\n")).not.toContain(token);
    expect(printed.join("\n")).toContain("holding");
  });
});
