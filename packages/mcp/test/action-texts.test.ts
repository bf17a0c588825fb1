/**
 * Every text `send_message` passes on, walked: each way a call can fail (a refused, limited,
 * unreachable or unsure part, a missing chat or thread, a refused MEDIA: line, bad
 * arguments, a reused key, an unconfigured platform), over a real MCP client, and every
 * string of each result (the text and the structured content) checked: it advises only what
 * the tool can do, in its own argument names, and never a repeat that would duplicate.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { fixtureBytes } from "@outbox/conformance";
import type { Fault } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { connectMcp } from "./support/connect.js";
import { referencePlatform } from "./support/reference-platform.js";
import { TOOL_ARGUMENTS } from "./support/tool-arguments.js";

const png = {
  data: Buffer.from(fixtureBytes("png")).toString("base64"),
  mimeType: "image/png",
  name: "chart.png",
};

/** Names of core's API and of server settings: out of an agent's reach. */
const INTEGRATOR =
  /MediaPolicy|localRoots|\b(retry|options|target|error|media)\.\w|retryAmbiguous|replyToId|mediaUrls|SendOptions|docs\/|mcp:[a-z]+:/;

/** One way to fail: the faults to inject first, the arguments, and whether the call names a key. */
interface Scenario {
  name: string;
  faults?: Fault[];
  args: Record<string, unknown>;
  /** Call once with these arguments before the checked call. */
  before?: Record<string, unknown>;
  /** The server's environment, without the emulator (an unconfigured platform). */
  unconfigured?: boolean;
  /** The scenario is about calls without a key: it is not run with one. */
  unkeyed?: boolean;
}

const scenarios: Scenario[] = [
  { name: "a refused part", faults: [{ kind: "reject", description: "Bad Request: no" }], args: {} },
  {
    name: "a rate-limited image",
    faults: [{ kind: "rate-limit", retryAfterMs: 120_000, method: "sendMedia" }],
    args: { images: [png] },
  },
  {
    name: "an unreachable platform",
    faults: [{ kind: "reset-before-write", times: 4 }],
    args: { images: [png] },
  },
  { name: "a part that may have arrived (reset)", faults: [{ kind: "reset-after-processed" }], args: {} },
  {
    name: "a part that may have arrived (5xx)",
    faults: [{ kind: "server-error", status: 503 }],
    args: {},
  },
  { name: "a missing chat", args: { to: "no-such-chat" } },
  { name: "a missing thread", args: { thread: "no-such-thread" } },
  { name: "a MEDIA: line outside the media directory", args: { message: "x\nMEDIA:/etc/passwd" } },
  { name: "a MEDIA: line with a plain http URL", args: { message: "x\nMEDIA:http://127.0.0.1/a.png" } },
  {
    name: "a MEDIA: line with an https URL to a private address",
    args: { message: "x\nMEDIA:https://127.0.0.1/a.png" },
  },
  { name: "bad arguments", args: { files: [{ ...png, mimeType: "application/x-sh" }] } },
  { name: "ambiguous without a key", args: { ambiguous: "resend" }, unkeyed: true },
  {
    name: "a key reused for another message",
    before: { idempotencyKey: "reused" },
    args: { idempotencyKey: "reused", message: "another message" },
  },
  { name: "an unconfigured platform", args: {}, unconfigured: true },
];

/** Every string in a value. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

/** Run one scenario on a fresh server (no fault left over), the call with or without a key. */
async function run(scenario: Scenario, keyed: boolean): Promise<CallToolResult> {
  const reference = referencePlatform();
  const mcp = await connectMcp({
    descriptors: [reference.descriptor],
    ...(scenario.unconfigured ? { env: {} } : { emulator: true }),
  });
  const call = (args: Record<string, unknown>) =>
    mcp.send({
      platform: "reference",
      to: reference.chat,
      message: "hello there",
      ...(keyed ? { idempotencyKey: "turn-1" } : {}),
      ...args,
    });
  try {
    if (scenario.before) await call(scenario.before);
    for (const fault of scenario.faults ?? []) reference.emulator.inject(fault);
    return await call(scenario.args);
  } finally {
    await mcp.close();
  }
}

describe("every text send_message passes on", () => {
  it("names the tool's arguments: the list the texts are checked against is the schema's", async () => {
    const mcp = await connectMcp({ descriptors: [referencePlatform().descriptor], emulator: true });
    try {
      const [tool] = (await mcp.client.listTools()).tools;
      expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(TOOL_ARGUMENTS);
    } finally {
      await mcp.close();
    }
  });

  for (const scenario of scenarios)
    for (const keyed of scenario.unkeyed ? [false] : [true, false]) {
      const named = keyed || scenario.args.idempotencyKey !== undefined;
      it(`${scenario.name}${keyed ? ", with a key" : ""}: advises only what the tool can do`, {
        timeout: 30_000,
      }, async () => {
        const result = await run(scenario, keyed);
        expect(result.isError, scenario.name).toBe(true);
        const content = result.content.map((block) => (block.type === "text" ? block.text : ""));
        const texts = [...content, ...strings(result.structuredContent)];
        for (const text of texts) {
          expect(text).not.toMatch(INTEGRATOR);
          for (const [, name] of text.matchAll(/`([^`]+)`/g)) expect(TOOL_ARGUMENTS, text).toContain(name);
          // Without a key, repeating the whole call would send the delivered parts again.
          if (!named) expect(text).not.toMatch(/same (arguments and )?idempotencyKey/);
        }
        // Every failure says what to do, in the structured result and in the text.
        const structured = result.structuredContent as {
          failures?: Array<{ action?: string }>;
          error?: { action?: string };
        };
        const actions = structured.error ? [structured.error] : (structured.failures ?? []);
        expect(actions.length).toBeGreaterThan(0);
        for (const entry of actions) expect(entry.action).toMatch(/\w/);
        expect(content.join("\n")).toContain("To do: ");
      });
    }
});
