/**
 * Without the instrumentation Outbox pays nothing and loads nothing of OpenTelemetry: core and
 * the queue never import it (a reading of their sources), and a send publishes nothing (no
 * message of any channel is built) while no one subscribes.
 */

import { channel, tracingChannel } from "node:diagnostics_channel";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createAdapter, createPlainRenderer, OUTBOX_CHANNELS } from "@outbox/core";
import { expect, it } from "vitest";
import { testCapabilities } from "../../core/test/engine/support/recording-transport.js";

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );

it("core and the queue import nothing of OpenTelemetry", () => {
  const root = new URL("../../", import.meta.url).pathname;
  const files = [...sources(join(root, "core", "src")), ...sources(join(root, "queue", "src"))];
  expect(files.length).toBeGreaterThan(100);
  expect(files.filter((file) => readFileSync(file, "utf8").includes("@opentelemetry"))).toEqual([]);
});

it("a send with no subscriber builds no channel message", async () => {
  for (const name of Object.values(OUTBOX_CHANNELS)) {
    expect(tracingChannel(name).start.hasSubscribers, name).toBe(false);
    expect(channel(name).hasSubscribers, name).toBe(false);
  }
  let ids = 0;
  const adapter = createAdapter({
    name: "memory",
    capabilities: testCapabilities({ text: { maxLength: 4096, format: "plain" }, album: null }),
    renderer: createPlainRenderer(),
    transport: {
      sendText: async () => ({ id: String(++ids) }),
      sendMedia: async () => ({ id: String(++ids) }),
    },
  });
  // A target whose `to` counts its reads: building a send's message reads it.
  let reads = 0;
  const target = {
    get to() {
      reads += 1;
      return "chat";
    },
  };
  const receipt = await adapter.send({ text: "hello" }, target);
  expect(receipt.ok).toBe(true);
  const withoutTracing = reads;
  const publish = { start() {}, end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
  tracingChannel(OUTBOX_CHANNELS.send).subscribe(publish);
  try {
    await adapter.send({ text: "hello" }, target);
  } finally {
    tracingChannel(OUTBOX_CHANNELS.send).unsubscribe(publish);
  }
  // Subscribed, the send's message reads the target once more: unsubscribed, it was never built.
  expect(reads).toBe(withoutTracing * 2 + 1);
});
