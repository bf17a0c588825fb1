/**
 * The emulated channels the streaming end-to-end tests run against (real grammY,
 * @slack/web-api, @discordjs/rest and undici clients over HTTP to strict emulators on
 * 127.0.0.1, and the web inbox), and a view of what a channel shows: its visible words and
 * its files.
 */
import { fixturePath, fixtureSha256, fixturesDir } from "@outbox/conformance";
import type { AgentEvent, EmulatedChannel, ObservedMessage } from "@outbox/core";
import { createEmulatedChannel as discord } from "@outbox/discord/testing";
import { createEmulatedChannel as matrix } from "@outbox/matrix/testing";
import { createEmulatedChannel as slack } from "@outbox/slack/testing";
import { createEmulatedChannel as telegram } from "@outbox/telegram/testing";
import { createEmulatedChannel as web } from "@outbox/web/testing";
import { createEmulatedChannel as whatsapp } from "@outbox/whatsapp/testing";
import { afterEach, beforeEach } from "vitest";

/** Every platform's channel factory, media loaded from the conformance fixtures. */
export const platforms: Array<[string, () => Promise<EmulatedChannel>]> = [
  ["telegram", () => telegram({ media: { localRoots: [fixturesDir], workspaceDir: fixturesDir } })],
  ["slack", () => slack({ media: { localRoots: [fixturesDir], workspaceDir: fixturesDir } })],
  ["discord", () => discord({ media: { localRoots: [fixturesDir], workspaceDir: fixturesDir } })],
];

/** Every platform whose adapter declares replies: the three above, WhatsApp, Matrix and the web inbox. */
export const replyPlatforms: Array<[string, () => Promise<EmulatedChannel>]> = [
  ...platforms,
  ["whatsapp", () => whatsapp({ media: { localRoots: [fixturesDir], workspaceDir: fixturesDir } })],
  ["matrix", () => matrix({ media: { localRoots: [fixturesDir], workspaceDir: fixturesDir } })],
  ["web", () => web({ media: { localRoots: [fixturesDir], workspaceDir: fixturesDir } })],
];

/** What the user sees: the words of every text and caption, and the sha256 of every file, in order. */
export function view(messages: ObservedMessage[]): { words: string[]; files: string[] } {
  const words: string[] = [];
  const files: string[] = [];
  const walk = (message: ObservedMessage): void => {
    words.push(...`${message.text ?? ""} ${message.caption ?? ""}`.split(/\s+/).filter(Boolean));
    if (message.sha256) files.push(message.sha256);
    for (const item of message.items ?? []) walk(item);
  };
  for (const message of messages) walk(message);
  return { words, files };
}

/** The fixtures the scripted runs use. */
export const png = { path: fixturePath("png"), sha: fixtureSha256("png") };
/** A JPEG fixture. */
export const jpeg = { path: fixturePath("jpeg"), sha: fixtureSha256("jpeg") };
/** The fixtures directory, the runs' workspace. */
export { fixturesDir };

/** Resolve once `ready()` holds, checking after each event-loop turn (no sleeping). */
export async function until(ready: () => boolean, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns && !ready(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!ready()) throw new Error("condition not reached");
}

/**
 * A fresh channel from `open` for each test of the suite, closed after it: the result stands
 * for the current test's channel.
 */
export function eachChannel(open: () => Promise<EmulatedChannel>): EmulatedChannel {
  let channel: EmulatedChannel | undefined;
  beforeEach(async () => {
    channel = await open();
  });
  afterEach(async () => {
    await channel?.close();
  });
  const now = (): EmulatedChannel => {
    if (channel === undefined) throw new Error("no channel outside a test");
    return channel;
  };
  return {
    get platform() {
      return now().platform;
    },
    get adapter() {
      return now().adapter;
    },
    get target() {
      return now().target;
    },
    get emulator() {
      return now().emulator;
    },
    observe: () => now().observe(),
    inject: (fault) => now().inject(fault),
    close: () => now().close(),
  };
}

/** Yields `texts` as text events then `done`; `before[i]` is awaited before text `i`. */
export async function* textRun(
  texts: string[],
  before: Record<number, () => Promise<void>> = {},
): AsyncGenerator<AgentEvent> {
  for (const [index, text] of texts.entries()) {
    await before[index]?.();
    yield { type: "text", text };
  }
  yield { type: "done" };
}
