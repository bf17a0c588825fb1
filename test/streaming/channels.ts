/**
 * The emulated channels the streaming end-to-end tests run against (real grammY,
 * @slack/web-api, @discordjs/rest and undici clients over HTTP to strict emulators on
 * 127.0.0.1, and the web inbox), and a view of what a channel shows: its visible words and
 * its files.
 */
import { fixturePath, fixtureSha256, fixturesDir } from "@outbox/conformance";
import {
  type AgentEvent,
  createManualClock,
  type EmulatedChannel,
  type EmulatedChannelOptions,
  type ManualClock,
  type ObservedMessage,
} from "@outbox/core";
import { createEmulatedChannel as discord } from "@outbox/discord/testing";
import { createEmulatedChannel as matrix } from "@outbox/matrix/testing";
import { createEmulatedChannel as slack } from "@outbox/slack/testing";
import { createEmulatedChannel as telegram } from "@outbox/telegram/testing";
import { createEmulatedChannel as web } from "@outbox/web/testing";
import { createEmulatedChannel as whatsapp } from "@outbox/whatsapp/testing";
import { afterEach, beforeEach } from "vitest";

/** A channel factory: the adapter loads media from the conformance fixtures; `options` add to that. */
export type OpenChannel = (options?: Omit<EmulatedChannelOptions, "media">) => Promise<EmulatedChannel>;

const withFixtures =
  (create: (options: EmulatedChannelOptions) => Promise<EmulatedChannel>): OpenChannel =>
  (options = {}) =>
    create({ media: { localRoots: [fixturesDir], workspaceDir: fixturesDir }, ...options });

/** Every platform's channel factory, media loaded from the conformance fixtures. */
export const platforms: Array<[string, OpenChannel]> = [
  ["telegram", withFixtures(telegram)],
  ["slack", withFixtures(slack)],
  ["discord", withFixtures(discord)],
];

/** Every platform whose adapter declares replies: the three above, WhatsApp, Matrix and the web inbox. */
export const replyPlatforms: Array<[string, OpenChannel]> = [
  ...platforms,
  ["whatsapp", withFixtures(whatsapp)],
  ["matrix", withFixtures(matrix)],
  ["web", withFixtures(web)],
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

/** A channel of {@link eachChannel}, on a clock of the test's. */
export interface TestChannel extends EmulatedChannel {
  /**
   * `work` settled, the adapter's waits (a settle's edit spaced by the platform's edit
   * interval, pacing) passed meanwhile in virtual time: the clock moves from wake-up to
   * wake-up until `work` settles. Outside it the clock stands still: a run that waits on
   * it (pacing, an edit's spacing) goes through here, or its wait never ends.
   */
  settled<T>(work: Promise<T>): Promise<T>;
}

/**
 * A fresh channel from `open` for each test of the suite, on a fresh manual clock, closed
 * after it: the result stands for the current test's channel.
 */
export function eachChannel(open: OpenChannel): TestChannel {
  let current: { channel: EmulatedChannel; clock: ManualClock } | undefined;
  beforeEach(async () => {
    const clock = createManualClock();
    current = { channel: await open({ clock }), clock };
  });
  afterEach(async () => {
    await current?.channel.close();
  });
  const now = (): { channel: EmulatedChannel; clock: ManualClock } => {
    if (current === undefined) throw new Error("no channel outside a test");
    return current;
  };
  return {
    get platform() {
      return now().channel.platform;
    },
    get adapter() {
      return now().channel.adapter;
    },
    get target() {
      return now().channel.target;
    },
    get emulator() {
      return now().channel.emulator;
    },
    observe: () => now().channel.observe(),
    inject: (fault) => now().channel.inject(fault),
    close: () => now().channel.close(),
    settled: (work) => now().clock.run(work),
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
