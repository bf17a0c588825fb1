/**
 * The peer process of `bench/suites/peers.ts`: Outbox and Vercel's Chat SDK side by side,
 * each sending the same payloads to the parent's emulators. The loopback guard is installed
 * before any client loads, so a request leaving 127.0.0.1 fails loudly (and Chat SDK's
 * Discord uploads, hard-coded to discord.com, are rewritten to the emulator and counted).
 * The fixture media server (https, self-signed) runs here; its certificate goes to the parent,
 * whose Telegram emulator downloads URL media as Telegram does.
 *
 * Protocol (IPC): child → `{ ca }`; parent → {@link PeerSetup}; then per send the child asks
 * `{ count: platform }` before and after (the emulator's request count) and finally sends
 * `{ results, guard }`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { guardLoopback } from "./loopback-guard.js";

const rewrite: Record<string, string> = {};
const guard = guardLoopback(rewrite);

/** Where one platform's emulator is, and the targets of each sender and payload. */
export interface PeerSetup {
  rounds: number;
  platforms: Record<
    Platform,
    { root: string; token: string; targets: Record<Sender, Record<string, Target>> }
  >;
}
/** A platform of the side by side. */
export type Platform = "telegram" | "slack" | "discord";
/** Who sends. */
export type Sender = "outbox" | "chatsdk";
/** Chat (channel) of a payload, and the seeded message a reply answers. */
export interface Target {
  chat: string;
  replyTo?: string;
}
/** One payload sent by one sender on one platform. */
export interface PeerResult {
  platform: Platform;
  sender: Sender;
  payload: string;
  /** Wall time per send, every round. */
  wallMs: number[];
  /** HTTP requests the emulator received for the first send. */
  calls: number;
  /** The first send's error, if it threw or its receipt failed. */
  error?: string;
}

type Message = { markdown: string; attachments?: unknown[]; files?: unknown[] };
type Send = (payload: string, target: Target) => Promise<void>;

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const pending: Array<(value: unknown) => void> = [];
process.on("message", (message) => pending.shift()?.(message));
const ask = (question: unknown) =>
  new Promise<unknown>((resolve) => {
    pending.push(resolve);
    process.send?.(question);
  });

async function main(): Promise<void> {
  // Loaded after the guard, so every client sees it.
  const { conformanceMedia } = await import("@outbox/conformance");
  const { ASKED, PAYLOADS } = await import("../suites/peer-cases.js");
  const media = await conformanceMedia();
  const setup = (await ask({ ca: media.ca })) as PeerSetup;
  rewrite["https://discord.com/api/v10"] = `${setup.platforms.discord.root}/v10`;
  const source = (name: string) => {
    const item = ASKED[name as keyof typeof ASKED].media;
    if (!item) return undefined;
    return { ...item, ref: item.from === "url" ? media.url(item.fixture) : media.file(item.fixture) };
  };
  const outbox = await outboxSenders(setup, media.policy, (name) => {
    const asked = ASKED[name as keyof typeof ASKED];
    const item = source(name);
    return { text: asked.markdown, mediaUrls: item ? [item.ref] : [], audioAsVoice: asked.voice ?? false };
  });
  const chatsdk = await chatSdkSenders(setup, (name) => {
    const item = source(name);
    const message: Message = { markdown: ASKED[name as keyof typeof ASKED].markdown };
    if (item?.from === "url")
      message.attachments = [{ type: item.fixture === "png" ? "image" : "audio", url: item.ref }];
    if (item?.from === "file")
      message.files = [{ data: readFileSync(item.ref), filename: "doc.pdf", mimeType: "application/pdf" }];
    return message;
  });
  const results: PeerResult[] = [];
  for (const platform of ["telegram", "slack", "discord"] as const) {
    const { targets } = setup.platforms[platform];
    for (const payload of PAYLOADS) {
      const pair = { outbox: outbox[platform], chatsdk: chatsdk[platform] };
      const rows = (["outbox", "chatsdk"] as const).map((sender) => ({
        platform,
        sender,
        payload,
        wallMs: [] as number[],
        calls: 0,
      }));
      for (let round = 0; round < setup.rounds; round++) {
        // Interleaved, the order alternating per round.
        for (const row of round % 2 === 0 ? rows : [...rows].reverse()) {
          const target = targets[row.sender][payload] as Target;
          const before = round === 0 ? ((await ask({ count: platform, chat: target.chat })) as number) : 0;
          const started = performance.now();
          try {
            await pair[row.sender](payload, target);
          } catch (error) {
            (row as PeerResult).error ??= error instanceof Error ? error.message : String(error);
          }
          row.wallMs.push(performance.now() - started);
          if (round === 0)
            row.calls = ((await ask({ count: platform, chat: target.chat })) as number) - before;
        }
      }
      results.push(...rows);
    }
  }
  process.send?.({ results, guard: { refused: guard.refused, rewritten: guard.rewritten } });
}

async function outboxSenders(
  setup: PeerSetup,
  policy: import("@outbox/core").MediaPolicy,
  input: (payload: string) => import("@outbox/core").ReplyPayloadInput,
): Promise<Record<Platform, Send>> {
  const { createTelegramAdapter } = await import("@outbox/telegram");
  const { createSlackAdapter } = await import("@outbox/slack");
  const { createDiscordAdapter } = await import("@outbox/discord");
  const { telegram, slack, discord } = setup.platforms;
  const adapters = {
    telegram: createTelegramAdapter({ token: telegram.token, apiRoot: telegram.root, media: policy }),
    slack: createSlackAdapter({ token: slack.token, slackApiUrl: slack.root, media: policy }),
    discord: createDiscordAdapter({ token: discord.token, api: discord.root, media: policy }),
  };
  const sender =
    (platform: Platform): Send =>
    async (payload, target) => {
      const receipt = await adapters[platform].send(
        { ...input(payload), ...(target.replyTo ? { replyToId: target.replyTo } : {}) },
        { to: target.chat },
      );
      if (!receipt.ok) throw new Error(receipt.failures.map((f) => f.error.message).join("; "));
    };
  return { telegram: sender("telegram"), slack: sender("slack"), discord: sender("discord") };
}

/** Chat SDK adapters, called at `postMessage` / `reply` level (no Chat instance, no state). */
async function chatSdkSenders(
  setup: PeerSetup,
  message: (payload: string) => Message,
): Promise<Record<Platform, Send>> {
  const { createTelegramAdapter } = await import("@chat-adapter/telegram");
  const { createSlackAdapter } = await import("@chat-adapter/slack");
  const { createDiscordAdapter } = await import("@chat-adapter/discord");
  const { telegram, slack, discord } = setup.platforms;
  const tg = createTelegramAdapter({
    botToken: telegram.token,
    apiUrl: telegram.root,
    mode: "webhook",
    allowUnverifiedWebhooks: true,
    userName: "bench",
    logger: silent,
  });
  const sl = createSlackAdapter({
    botToken: slack.token,
    signingSecret: "bench",
    apiUrl: slack.root,
    logger: silent,
  });
  const dc = createDiscordAdapter({
    botToken: discord.token,
    applicationId: "1",
    publicKey: "0".repeat(64),
    apiUrl: `${discord.root}/v10`,
    logger: silent,
  });
  // biome-ignore lint/suspicious/noExplicitAny: the peer's message union is wider than these payloads; checked at run time.
  const post = (adapter: any, thread: string, payload: string, replyTo?: string) =>
    replyTo && typeof adapter.reply === "function"
      ? adapter.reply(thread, replyTo, message(payload))
      : adapter.postMessage(thread, message(payload));
  return {
    telegram: async (payload, t) => post(tg, `telegram:${t.chat}`, payload, t.replyTo),
    // Slack has no reply(): its reply is a post into the message's thread (thread_ts in the thread id).
    slack: async (payload, t) => post(sl, `slack:${t.chat}${t.replyTo ? `:${t.replyTo}` : ""}`, payload),
    // Discord has no reply() and never sets message_reference: the post is unthreaded.
    discord: async (payload, t) => post(dc, `discord:1300000000000000001:${t.chat}`, payload, t.replyTo),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  main().then(
    () => process.disconnect(),
    (error: unknown) => {
      console.error("peer process failed:", error);
      process.exit(1);
    },
  );
}
