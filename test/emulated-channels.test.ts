/**
 * Every adapter's `createEmulatedChannel()` offers one surface, core's `EmulatedChannel`:
 * the adapter, the target, what the chat shows, the emulator itself, and `inject`, which
 * applies a fault or refuses loudly one it could never apply (docs/streaming.md, "Simulating
 * failures"; docs/conformance.md, "Fault targets").
 */

import { type EmulatedChannel, type EmulatedChannelOptions, UnknownFaultError } from "@outbox/core";
import type { PlatformEmulator } from "@outbox/core/testing";
import { createEmulatedChannel as discord } from "@outbox/discord/testing";
import { createEmulatedChannel as googlechat } from "@outbox/googlechat/testing";
import { createEmulatedChannel as matrix } from "@outbox/matrix/testing";
import { createEmulatedChannel as slack } from "@outbox/slack/testing";
import { createEmulatedChannel as teams } from "@outbox/teams/testing";
import { createEmulatedChannel as telegram } from "@outbox/telegram/testing";
import { createEmulatedChannel as web } from "@outbox/web/testing";
import { createEmulatedChannel as whatsapp } from "@outbox/whatsapp/testing";
import { describe, expect, it } from "vitest";
import { documentedTargets } from "./support/fault-targets.js";

/** Each adapter's channel factory, typed as core's surface: a missing member fails type-checking. */
const channels: Array<[string, (options?: EmulatedChannelOptions) => Promise<EmulatedChannel>]> = [
  ["telegram", telegram],
  ["slack", slack],
  ["discord", discord],
  ["whatsapp", whatsapp],
  ["matrix", matrix],
  ["teams", teams],
  ["googlechat", googlechat],
  ["web", web],
];

describe.each(channels)("%s: createEmulatedChannel", (name, open) => {
  it("has inject and the emulator, and an injected refusal reaches the send", async () => {
    const channel = await open();
    try {
      expect(channel.platform).toBe(name);
      expect(typeof channel.inject).toBe("function");
      expect(typeof channel.emulator).toBe("object");
      expect(channel.emulator).not.toBeNull();
      channel.inject({ kind: "reject", description: "injected refusal zq9x" });
      const receipt = await channel.adapter.send({ text: "hello" }, channel.target);
      expect(receipt.ok).toBe(false);
      expect(receipt.failures[0]?.error.message).toContain("zq9x");
      expect(channel.observe()).toEqual([]);
    } finally {
      await channel.close();
    }
  });

  it("refuses at inject a fault it could never apply: an unknown method or kind", async () => {
    const channel = await open();
    try {
      expect(() => channel.inject({ kind: "reset-after-processed", method: "noSuchMethod" })).toThrow(
        UnknownFaultError,
      );
      expect(() => channel.inject({ kind: "drop" } as never)).toThrow(UnknownFaultError);
      // Nothing refused was queued: the next send goes through.
      const receipt = await channel.adapter.send({ text: "hello" }, channel.target);
      expect(receipt.ok).toBe(true);
    } finally {
      await channel.close();
    }
  });
});

describe("docs/conformance.md, Fault targets", () => {
  const documented = documentedTargets();
  it.each(channels)("%s: every documented target is one its emulator answers", async (name, open) => {
    const targets = documented.get(name) ?? [];
    expect(targets.length).toBeGreaterThan(0);
    const channel = await open();
    try {
      for (const method of targets)
        channel.inject({ kind: "rate-limit", retryAfterMs: 0, method, skip: 1_000 });
    } finally {
      await channel.close();
    }
  });
});

/** The platform adapters' channels, typed with core's emulator surface: a missing member fails type-checking. */
const platformChannels: Array<
  [string, (options?: EmulatedChannelOptions) => Promise<EmulatedChannel<PlatformEmulator>>]
> = [
  ["telegram", telegram],
  ["slack", slack],
  ["discord", discord],
  ["whatsapp", whatsapp],
  ["matrix", matrix],
  ["teams", teams],
  ["googlechat", googlechat],
];

describe.each(platformChannels)("%s: the emulator of createEmulatedChannel", (_name, open) => {
  it("is the kit's platform emulator: its request log, fault targets and faults, as the channel's", async () => {
    const channel = await open();
    try {
      expect(channel.emulator.faultTargets.length).toBeGreaterThan(0);
      channel.inject({ kind: "rate-limit", retryAfterMs: 10, method: channel.emulator.faultTargets[0] });
      expect(() => channel.emulator.inject({ kind: "reset", method: "noSuchMethod" })).toThrow(
        UnknownFaultError,
      );
      const receipt = await channel.adapter.send({ text: "hello" }, channel.target);
      expect(receipt.ok).toBe(true);
      expect(channel.emulator.requests.length).toBeGreaterThan(0);
      expect(channel.emulator.rateLimitRefusals()).toBe(0);
      expect(channel.emulator.refusedConnections()).toBe(0);
    } finally {
      await channel.close();
    }
  });
});
