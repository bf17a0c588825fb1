/**
 * Fault tests judge what happened with `checkHistory` (@outbox/conformance): replies whose
 * parts carry markers, the emulators' chats, the queued receipts turned back into receipts,
 * and which parts' requests reached the platform (a {@link RecordingProxy}).
 */
import { checkHistory, type DeliveryHistory, type HistoryVerdict } from "@outbox/conformance";
import { type DeliveryReceipt, type ObservedMessage, TransportError } from "@outbox/core";
import { startDiscordEmulator } from "@outbox/discord/testing";
import { startSlackEmulator } from "@outbox/slack/testing";
import { startTelegramEmulator } from "@outbox/telegram/testing";
import type { EnqueueOptions, Outbox, QueuedReceipt } from "../../src/index.js";
import type { PlatformSpec } from "./platforms.js";
import { type ProxyOptions, type RecordingProxy, startRecordingProxy } from "./recording-proxy.js";

/** The platforms the fault tests run on. */
export type FaultPlatformName = "telegram" | "slack" | "discord";

/**
 * A reply of one part per marker: paragraphs too long for two to share a message, short
 * enough for one to fit (3,600 characters on Telegram and Slack, 1,200 within Discord's 2,000).
 */
export function replyOf(markers: readonly string[], platform: FaultPlatformName): string {
  const lorem = "lorem ipsum ".repeat(platform === "discord" ? 100 : 300);
  return markers.map((marker) => `${marker} ${lorem}`).join("\n\n");
}

/** The markers of reply `n`'s parts (`M<n>x<part>`, letters and digits only). */
export const markersOf = (n: number, parts: number): string[] =>
  Array.from({ length: parts }, (_, part) => `M${n}x${part}Q`);

/** A queued receipt as the engine's receipt (failures become errors again), for the checker. */
export function engineReceipt(queued: QueuedReceipt | undefined): DeliveryReceipt | undefined {
  if (queued === undefined) return undefined;
  const receipt = queued.receipt ?? { ok: false, messages: [], failures: [], degraded: [] };
  return {
    ...receipt,
    failures: receipt.failures.map(({ part, error }) => ({
      part,
      error: new TransportError(error.message, { ambiguous: error.ambiguous }),
    })),
  };
}

/** An emulator behind a recording proxy, with its chats and a factory spec pointing at the proxy. */
export interface FaultPlatform {
  name: FaultPlatformName;
  /** Chat ids (`Target.to`) it knows. */
  chats: string[];
  spec: PlatformSpec;
  proxy: RecordingProxy;
  observe(chat: string): ObservedMessage[];
  close(): Promise<void>;
}

/** Start a platform's emulator (its limits enforced) with `count` chats, behind a proxy. */
export async function startFaultPlatform(
  name: FaultPlatformName,
  count: number,
  options: ProxyOptions = {},
): Promise<FaultPlatform> {
  if (name === "telegram") {
    const ids = Array.from({ length: count }, (_, i) => i + 1);
    const emulator = await startTelegramEmulator({ chats: ids.map((id) => ({ id })) });
    return behindProxy(name, ids.map(String), emulator, emulator.apiRoot, options, {
      spec: (url) => ({ telegram: { apiRoot: url, token: emulator.token } }),
      observe: (chat) => emulator.observe(Number(chat)),
    });
  }
  if (name === "discord") {
    const ids = Array.from({ length: count }, (_, i) => String(1_100_000_000_000_000_001n + BigInt(i)));
    const emulator = await startDiscordEmulator({ channels: ids.map((id) => ({ id })) });
    return behindProxy(name, ids, emulator, emulator.api, options, {
      spec: (url) => ({ discord: { api: url, token: emulator.token } }),
      observe: (chat) => emulator.observe(chat),
    });
  }
  const ids = Array.from({ length: count }, (_, i) => `C0FAULT${i + 1}`);
  const emulator = await startSlackEmulator({ channels: ids.map((id) => ({ id })) });
  return behindProxy(name, ids, emulator, emulator.slackApiUrl, options, {
    spec: (url) => ({ slack: { slackApiUrl: url, token: emulator.token } }),
    observe: (chat) => emulator.observe(chat),
  });
}

/** A started emulator behind a new proxy to `upstream`: `spec` points the adapter at the proxy's URL. */
async function behindProxy(
  name: FaultPlatformName,
  chats: string[],
  emulator: { close(): Promise<void> },
  upstream: string,
  options: ProxyOptions,
  how: Pick<FaultPlatform, "observe"> & { spec: (url: string) => PlatformSpec },
): Promise<FaultPlatform> {
  const proxy = await startRecordingProxy(upstream, options);
  return {
    name,
    chats,
    spec: how.spec(proxy.url),
    proxy,
    observe: how.observe,
    close: async () => {
      await proxy.close();
      await emulator.close();
    },
  };
}

/** One judged reply: its chat, markers and (once settled) its queued receipt. */
export interface Sent {
  chat: string;
  markers: string[];
  receipt?: QueuedReceipt;
}

/** Judge replies sent to `platform` (receipts not settled count as hung). */
export function judge(platform: FaultPlatform, sent: readonly Sent[]): HistoryVerdict {
  const chats = [...new Set(sent.map((entry) => entry.chat))];
  const history: DeliveryHistory = {
    observed: Object.fromEntries(chats.map((chat) => [chat, platform.observe(chat)])),
    deliveries: sent.map((entry) => ({
      chat: entry.chat,
      parts: entry.markers,
      receipt: engineReceipt(entry.receipt),
    })),
    reached: (marker) => platform.proxy.reached(marker),
  };
  return checkHistory(history);
}

/**
 * Enqueue each reply to `platform` in order (with the options `optionsOf` gives it);
 * `settled` resolves when every receipt settled (each into its `sent` entry).
 */
export async function enqueueJudged(
  outbox: Outbox,
  platform: FaultPlatform,
  sent: Sent[],
  optionsOf: (entry: Sent, index: number) => EnqueueOptions = () => ({}),
): Promise<{ settled: Promise<unknown> }> {
  const settled: Promise<unknown>[] = [];
  for (const [index, entry] of sent.entries()) {
    const { id } = await outbox.enqueue(
      platform.name,
      { text: replyOf(entry.markers, platform.name) },
      { to: entry.chat },
      optionsOf(entry, index),
    );
    settled.push(outbox.receipt(id).then((receipt) => (entry.receipt = receipt)));
  }
  return { settled: Promise.all(settled) };
}

/** `count` two-part replies spread over the platform's chats. */
export const twoPartReplies = (platform: FaultPlatform, count: number): Sent[] =>
  Array.from({ length: count }, (_, n) => ({
    chat: platform.chats[n % platform.chats.length] as string,
    markers: markersOf(n, 2),
  }));
