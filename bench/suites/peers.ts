/**
 * Peer side by side: Outbox and Vercel's Chat SDK (`chat`, `@chat-adapter/telegram`, `/slack`,
 * `/discord`, devDependencies of the private `bench` package only) send the same payloads
 * (formatted text, a 10,000-character text, text + image by URL, text + local file, a voice
 * note, a reply) to the same emulators, in a child process that refuses any connection off
 * 127.0.0.1 (bench/support/peer-child.ts). Reported per platform, payload and sender: wall
 * time (median over the rounds), HTTP calls, and what arrived against what was asked (the
 * emulator's observation: drops, truncations, lost formatting, voice sent as audio, replies
 * not linked). Goals: Outbox delivers every payload intact, nothing leaves 127.0.0.1. Nothing
 * here is gated: the peer is not ours to regress. Quick mode: the same with one round.
 */
import { spawn } from "node:child_process";
import type { LookupFunction } from "node:net";
import { fileURLToPath } from "node:url";
import type { ObservedMessage } from "@outbox/core";
import { startDiscordEmulator } from "@outbox/discord/testing";
import { startSlackEmulator } from "@outbox/slack/testing";
import { createUrlFetcher, startTelegramEmulator } from "@outbox/telegram/testing";
import type { Metric, Suite } from "../support/metrics.js";
import type { PeerResult, PeerSetup, Platform, Sender, Target } from "../support/peer-child.js";
import { round, stats } from "../support/stats.js";
import { ASKED, findings, PAYLOADS, type PayloadName } from "./peer-cases.js";

const SENDERS: Record<Sender, string> = { outbox: "Outbox", chatsdk: "Chat SDK" };
const GUILD_CHANNEL = (s: number, i: number) => (1200000000000000000n + BigInt(s * 100 + i)).toString();

/** The fixture host resolves to 127.0.0.1 (both call shapes of a lookup). */
const toLoopback: LookupFunction = (_host, options, callback) =>
  options.all
    ? callback(null, [{ address: "127.0.0.1", family: 4 }] as never, 4)
    : callback(null, "127.0.0.1", 4);

/** Target chat of sender `s` (0, 1) and payload `i` on each platform. */
function chatOf(platform: Platform, s: number, i: number): string {
  if (platform === "telegram") return String(3000 + s * 100 + i);
  if (platform === "slack") return `C0PEER${s}${i}`;
  return GUILD_CHANNEL(s, i);
}

/** Start the child, then the emulators (the Telegram one trusts the child's media server). */
async function runPeers(rounds: number, platforms: readonly Platform[]) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--conditions=source",
      fileURLToPath(new URL("../support/peer-child.ts", import.meta.url)),
    ],
    { stdio: ["ignore", "inherit", "inherit", "ipc"], env: cleanEnv() },
  );
  const exited = new Promise<never>((_, reject) =>
    child.on("exit", (code) => reject(new Error(`peer process exited (${code}) before reporting`))),
  );
  const first = new Promise<{ ca: string }>((resolve) => child.once("message", resolve as never));
  const { ca } = await Promise.race([first, exited]);
  const ids = (platform: Platform) => [0, 1].flatMap((s) => PAYLOADS.map((_, i) => chatOf(platform, s, i)));
  const telegram = await startTelegramEmulator({
    rateLimits: false,
    chats: ids("telegram").map((id) => ({ id: Number(id) })),
    fetchUrl: createUrlFetcher({ ca, lookup: toLoopback }),
  });
  const slack = await startSlackEmulator({ rateLimits: false, channels: ids("slack").map((id) => ({ id })) });
  const discord = await startDiscordEmulator({
    messageBucket: false,
    globalPerSecond: false,
    channels: ids("discord").map((id) => ({ id })),
  });
  const emulators = {
    telegram: {
      root: telegram.apiRoot,
      token: telegram.token,
      em: telegram,
      observe: (c: string) => telegram.observe(Number(c)),
    },
    slack: {
      root: slack.slackApiUrl,
      token: slack.token,
      em: slack,
      observe: (c: string) => slack.observe(c),
    },
    discord: {
      root: discord.api,
      token: discord.token,
      em: discord,
      observe: (c: string) => discord.observe(c),
    },
  };
  try {
    const setup: PeerSetup = { rounds, platforms: {} as PeerSetup["platforms"] };
    for (const platform of platforms) {
      const targets = {} as Record<Sender, Record<string, Target>>;
      for (const [s, sender] of (["outbox", "chatsdk"] as const).entries()) {
        targets[sender] = {};
        for (const [i, payload] of PAYLOADS.entries()) {
          const chat = chatOf(platform, s, i);
          const seeded = ASKED[payload].reply
            ? {
                replyTo: emulators[platform].em.seedMessage(
                  platform === "telegram" ? (Number(chat) as never) : (chat as never),
                  "Did it ship?",
                ),
              }
            : {};
          targets[sender][payload] = { chat, ...seeded };
        }
      }
      const { root, token } = emulators[platform];
      setup.platforms[platform] = { root, token, targets };
    }
    // First-round arrivals per chat: the parent snapshots the observation at each count.
    const arrived = new Map<string, ObservedMessage[]>();
    const seen = new Map<string, number>();
    const done = new Promise<{
      results: PeerResult[];
      guard: { refused: string[]; rewritten: Record<string, number> };
    }>((resolve) =>
      child.on("message", (message: { count?: Platform; chat?: string; results?: PeerResult[] }) => {
        if (message.results) return resolve(message as never);
        const platform = message.count as Platform;
        const chat = String(message.chat);
        const observed = emulators[platform].observe(chat);
        if (seen.has(chat)) arrived.set(chat, observed.slice(seen.get(chat)));
        else seen.set(chat, observed.length);
        child.send(emulators[platform].em.requests.length);
      }),
    );
    child.send(setup);
    const outcome = await Promise.race([done, exited]);
    return { ...outcome, arrived, setup };
  } finally {
    child.kill();
    await Promise.all([telegram.close(), slack.close(), discord.close()]);
  }
}

/** The environment without any real platform credentials or API URLs (the peer reads them as defaults). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(TELEGRAM|SLACK|DISCORD|OUTBOX_(TELEGRAM|SLACK|DISCORD))_/.test(key),
    ),
  );
}

/** The peers suite. */
export const peersSuite: Suite = {
  name: "peers",
  async run({ quick }) {
    // Quick runs: Telegram only, one round (loading the three Chat SDK adapters takes seconds).
    const platforms = quick ? (["telegram"] as const) : (["telegram", "slack", "discord"] as const);
    const { results, guard, arrived, setup } = await runPeers(quick ? 1 : 5, platforms);
    if (guard.refused.length > 0)
      throw new Error(`the peer process tried to leave 127.0.0.1: ${guard.refused.join(", ")}`);
    const metrics: Metric[] = [];
    const intact: Record<string, string[]> = {};
    for (const result of results) {
      const target = setup.platforms[result.platform]?.targets[result.sender][result.payload] as Target;
      const got = arrived.get(target.chat) ?? [];
      const found = result.error
        ? [`failed: ${result.error.slice(0, 120)}`]
        : findings(result.platform, ASKED[result.payload as PayloadName], got, target.replyTo);
      const key = `${result.platform}.${result.sender}`;
      if (found.length === 0) intact[key] = [...(intact[key] ?? []), result.payload];
      metrics.push({
        id: `peers.${result.platform}.${result.payload}.${result.sender}`,
        value: round(stats(result.wallMs).median),
        unit: "ms",
        note: `${SENDERS[result.sender]}: ${result.calls} HTTP calls, ${got.length} messages; ${found.length === 0 ? "intact" : found.join("; ")}`,
      });
    }
    for (const platform of platforms)
      for (const sender of ["outbox", "chatsdk"] as const) {
        const ok = intact[`${platform}.${sender}`] ?? [];
        metrics.push({
          id: `peers.${platform}.intact.${sender}`,
          value: ok.length,
          unit: "payloads",
          ...(sender === "outbox" ? { goal: { op: ">=" as const, target: PAYLOADS.length } } : {}),
          note: `${SENDERS[sender]} on ${platform}: ${ok.length} of ${PAYLOADS.length} payloads arrived as asked`,
        });
      }
    const rewrites = Object.entries(guard.rewritten).map(([from, n]) => `${n} × ${from}`);
    metrics.push({
      id: "peers.leftLoopback",
      value: guard.refused.length,
      unit: "connections",
      goal: { op: "<=", target: 0 },
      note: `connections refused off 127.0.0.1${rewrites.length > 0 ? `; rewritten to the emulator: ${rewrites.join(", ")} (Chat SDK's Discord uploads ignore apiUrl)` : ""}`,
    });
    return metrics;
  },
};
