/**
 * The three emulated channels the streaming end-to-end tests run against (real grammY,
 * @slack/web-api and @discordjs/rest clients over HTTP to strict emulators on 127.0.0.1),
 * and a view of what a channel shows: its visible words and its files.
 */
import { fixturePath, fixtureSha256, fixturesDir } from "@outbox/conformance";
import type { EmulatedChannel, ObservedMessage } from "@outbox/core";
import { createEmulatedChannel as discord } from "@outbox/discord/testing";
import { createEmulatedChannel as slack } from "@outbox/slack/testing";
import { createEmulatedChannel as telegram } from "@outbox/telegram/testing";

/** Every platform's channel factory, media loaded from the conformance fixtures. */
export const platforms: Array<[string, () => Promise<EmulatedChannel>]> = [
  ["telegram", () => telegram({ media: { localRoots: [fixturesDir], workspaceDir: fixturesDir } })],
  ["slack", () => slack({ media: { localRoots: [fixturesDir], workspaceDir: fixturesDir } })],
  ["discord", () => discord({ media: { localRoots: [fixturesDir], workspaceDir: fixturesDir } })],
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
