/**
 * One fault matrix, one checker, in process: every fault of the emulators, at named points
 * of one reply (its first part, its middle part, each request of its media part), on every
 * platform's emulator through the real client libraries, on an injected
 * clock; each history judged by `checkHistory` from what the emulator recorded and what the
 * receipt said, and each faulted part's outcome checked against the rule (docs/delivery.md,
 * "Faults, platform by platform"): a platform that does not deduplicate never gets a guess.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkHistory } from "@outbox/conformance";
import { createManualClock, type DeliveryReceipt, type Fault, isAmbiguous } from "@outbox/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  points as metricPoints,
  startMemoryTelemetry,
} from "../../packages/otel/test/support/memory-telemetry.js";
import { type FaultPlatform, type FaultRig, platforms } from "./platforms.js";
import { scanTelemetry } from "./telemetry-scan.js";
import { threePartReply } from "./three-part-reply.js";

const { markers, workspace, reply } = threePartReply("zq");

type Kind = "reset-before-write" | "reset-after-processed" | "timeout-after-processed" | "5xx" | "429";
const kinds: readonly Kind[] = [
  "reset-before-write",
  "reset-after-processed",
  "timeout-after-processed",
  "5xx",
  "429",
];

/** A named point: the part hit, and which of the reply's requests (in order) the fault hits. */
interface Point {
  name: string;
  part: number;
  request: number;
}

function points(platform: FaultPlatform): Point[] {
  const media = platform.requests[1].map((method, i) => ({
    name: platform.requests[1].length > 1 ? `media part (${method})` : "media part",
    part: 2,
    request: 2 + i,
  }));
  return [
    { name: "first part", part: 0, request: 0 },
    { name: "middle part", part: 1, request: 1 },
    ...media,
  ];
}

/** The methods of the reply's requests, in order. */
const sequence = (platform: FaultPlatform) => [
  platform.requests[0],
  platform.requests[0],
  ...platform.requests[1],
];

/** The fault hitting request `index` of the sequence (a refused connection is armed by the answer before it). */
function faultAt(platform: FaultPlatform, kind: Kind, index: number): Fault {
  const methods = sequence(platform);
  const target = (i: number) => ({
    method: methods[i] as string,
    skip: methods.slice(0, i).filter((m) => m === methods[i]).length,
  });
  if (kind === "reset-before-write") return index === 0 ? { kind } : { kind, ...target(index - 1) };
  if (kind === "5xx") return { kind: "server-error", status: 503, ...target(index) };
  if (kind === "429") return { kind: "rate-limit", retryAfterMs: 1_000, ...target(index) };
  return { kind, ...target(index) };
}

/** What the receipt must say of the faulted part: the rule this matrix guards. */
function expected(platform: FaultPlatform, kind: Kind, method: string): "delivered" | "ambiguous" {
  if (kind === "reset-before-write" || kind === "429") return "delivered";
  // Only the request that posts can have posted something: an upload (Slack's reservation and bytes, WhatsApp's media) cannot.
  if (method === "files.getUploadURLExternal" || method === "upload" || method === "media")
    return "delivered";
  return platform.deduplicates ? "delivered" : "ambiguous";
}

/** How the part stands in its receipt. */
function outcome(receipt: DeliveryReceipt, part: number): string {
  if (receipt.messages.some((message) => message.part === part)) return "delivered";
  const failure = receipt.failures.find((entry) => entry.part === part);
  if (failure === undefined) return "missing";
  return isAmbiguous(failure.error) ? "ambiguous" : `failed (${failure.error.code})`;
}

const rows: string[] = [];
// The whole matrix runs traced, so every span and metric of every fault is scanned at the end.
let otel: ReturnType<typeof startMemoryTelemetry>;
const chats = new Set<string>();
beforeAll(() => {
  otel = startMemoryTelemetry();
});
afterAll(async () => {
  await otel.close();
});
afterAll(() => {
  mkdirSync(".outbox-tmp", { recursive: true });
  writeFileSync(join(".outbox-tmp", "fault-matrix.md"), `${rows.join("\n")}\n`);
});

for (const platform of platforms)
  describe(`fault matrix: ${platform.name}`, () => {
    for (const point of points(platform))
      for (const kind of kinds) {
        const method = sequence(platform)[point.request] as string;
        const want = expected(platform, kind, method);
        it(`${kind} at the ${point.name}: ${want}`, async () => {
          const clock = createManualClock();
          const timeoutMs = kind === "timeout-after-processed" ? 1_000 : 60_000;
          const rig: FaultRig = await platform.start({
            clock,
            media: { localRoots: [workspace], workspaceDir: workspace },
            timeoutMs,
          });
          chats.add(rig.to);
          try {
            rig.inject(faultAt(platform, kind, point.request));
            const receipt = await clock.run(rig.adapter.send(reply(platform), { to: rig.to }));
            const verdict = checkHistory({
              observed: { [rig.to]: rig.observe() },
              deliveries: [{ chat: rig.to, parts: markers, receipt }],
              reached: rig.reached,
            });
            const shown = rig
              .observe()
              .filter((m) => JSON.stringify(m).includes(markers[point.part] as string)).length;
            const got = outcome(receipt, point.part);
            rows.push(
              `| ${platform.name} | ${kind} | ${point.name} | shown ${shown}× | ${got} | ${verdict.ok ? "ok" : verdict.violations.join("; ")} |`,
            );
            expect(verdict.violations).toEqual([]);
            expect(got).toBe(want);
            // The other parts are untouched: delivered once each.
            for (const part of [0, 1, 2].filter((p) => p !== point.part))
              expect(outcome(receipt, part)).toBe("delivered");
            // The fault struck where it was aimed.
            if (kind === "reset-before-write") expect(rig.refused()).toBe(1);
            else {
              const status = kind === "5xx" ? 503 : kind === "429" ? 429 : 0;
              expect(rig.answers().filter((a) => a.method === method && a.status === status)).toHaveLength(1);
            }
            if (kind === "429") expect(clock.now()).toBeGreaterThanOrEqual(1_000);
            // What the platform holds: a processed request stays; one refused or answered 503 never was.
            const processed = kind === "reset-after-processed" || kind === "timeout-after-processed";
            expect(shown).toBe(want === "delivered" || processed ? 1 : 0);
          } finally {
            await rig.close();
          }
        });
      }
  });

describe("the fault matrix's telemetry", () => {
  it("holds every platform's calls, and no text, chat id, token, media name or URL in any span or metric", async () => {
    const spans = otel.spans();
    const collected = await otel.collect();
    const calls = spans.filter((span) => span.name === "outbox.call");
    expect(new Set(calls.map((call) => call.attributes["outbox.platform"]))).toEqual(
      new Set(platforms.map((platform) => platform.name)),
    );
    // The faults show: ambiguous calls and 429s were recorded, and counted.
    expect(calls.some((call) => call.attributes["outbox.outcome"] === "ambiguous")).toBe(true);
    expect(calls.some((call) => call.attributes["http.response.status_code"] === 429)).toBe(true);
    expect(metricPoints(collected, "outbox.rate_limited").length).toBe(platforms.length);
    const forbidden = [...markers, "lorem", "127.0.0.1", "http:", "https:", ".png", ...chats];
    expect(scanTelemetry(spans, collected, forbidden)).toEqual([]);
  });
});
