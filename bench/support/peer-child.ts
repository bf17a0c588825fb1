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
import { skippingClock } from "./adapter-bench.js";
import { guardLoopback } from "./loopback-guard.js";

const rewrite: Record<string, string> = {};
const guard = guardLoopback(rewrite);

/** Where one platform's emulator is, and the targets of each sender and payload. */
export interface PeerSetup {
  rounds: number;
  /** The platforms to run, in order (quick runs: Telegram only). */
  platforms: Partial<Record<Platform, Endpoint>>;
}
/** One platform's emulator and the targets of each sender and payload. */
export interface Endpoint {
  root: string;
  token: string;
  targets: Record<Sender, Record<string, Target>>;
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
  if (setup.platforms.discord) rewrite["https://discord.com/api/v10"] = `${setup.platforms.discord.root}/v10`;
  const source = (name: string) => {
    const item = ASKED[name as keyof typeof ASKED].media;
    if (!item) return undefined;
    return { ...item, ref: item.from === "url" ? media.url(item.fixture) : media.file(item.fixture) };
  };
  const outboxInput = (name: string) => {
    const asked = ASKED[name as keyof typeof ASKED];
    const item = source(name);
    return { text: asked.markdown, mediaUrls: item ? [item.ref] : [], audioAsVoice: asked.voice ?? false };
  };
  const chatSdkMessage = (name: string) => {
    const item = source(name);
    const message: Message = { markdown: ASKED[name as keyof typeof ASKED].markdown };
    if (item?.from === "url")
      message.attachments = [{ type: item.fixture === "png" ? "image" : "audio", url: item.ref }];
    if (item?.from === "file")
      message.files = [{ data: readFileSync(item.ref), filename: "doc.pdf", mimeType: "application/pdf" }];
    return message;
  };
  const results: PeerResult[] = [];
  for (const platform of Object.keys(setup.platforms) as Platform[]) {
    const endpoint = setup.platforms[platform] as Endpoint;
    const { targets } = endpoint;
    const pair: Record<Sender, Send> = {
      outbox: await outboxSender(platform, endpoint, media.policy, outboxInput),
      chatsdk: await chatSdkSender(platform, endpoint, chatSdkMessage),
    };
    for (const payload of PAYLOADS) {
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

/**
 * Outbox's adapter for `platform`, loaded on first use. Its pacing waits are skipped (the
 * emulators' limits are off here, and the peer paces nothing): time is the sending work.
 */
async function outboxSender(
  platform: Platform,
  { root, token }: Endpoint,
  policy: import("@outbox/core").MediaPolicy,
  input: (payload: string) => import("@outbox/core").ReplyPayloadInput,
): Promise<Send> {
  const clock = skippingClock();
  const adapter =
    platform === "telegram"
      ? (await import("@outbox/telegram")).createTelegramAdapter({
          token,
          apiRoot: root,
          media: policy,
          clock,
        })
      : platform === "slack"
        ? (await import("@outbox/slack")).createSlackAdapter({
            token,
            slackApiUrl: root,
            media: policy,
            clock,
          })
        : (await import("@outbox/discord")).createDiscordAdapter({ token, api: root, media: policy, clock });
  return async (payload, target) => {
    const receipt = await adapter.send(
      { ...input(payload), ...(target.replyTo ? { replyToId: target.replyTo } : {}) },
      { to: target.chat },
    );
    if (!receipt.ok) throw new Error(receipt.failures.map((f) => f.error.message).join("; "));
  };
}

/** Chat SDK's adapter for `platform`, called at `postMessage` / `reply` level (no Chat instance, no state). */
async function chatSdkSender(
  platform: Platform,
  { root, token }: Endpoint,
  message: (payload: string) => Message,
): Promise<Send> {
  // biome-ignore lint/suspicious/noExplicitAny: the peer's message union is wider than these payloads; checked at run time.
  const post = (adapter: any, thread: string, payload: string, replyTo?: string) =>
    replyTo && typeof adapter.reply === "function"
      ? adapter.reply(thread, replyTo, message(payload))
      : adapter.postMessage(thread, message(payload));
  if (platform === "telegram") {
    const { createTelegramAdapter } = await import("@chat-adapter/telegram");
    const adapter = createTelegramAdapter({
      botToken: token,
      apiUrl: root,
      mode: "webhook",
      allowUnverifiedWebhooks: true,
      userName: "bench",
      logger: silent,
    });
    return async (payload, t) => post(adapter, `telegram:${t.chat}`, payload, t.replyTo);
  }
  if (platform === "slack") {
    const { createSlackAdapter } = await import("@chat-adapter/slack");
    const adapter = createSlackAdapter({
      botToken: token,
      signingSecret: "bench",
      apiUrl: root,
      logger: silent,
    });
    // Slack has no reply(): its reply is a post into the message's thread (thread_ts in the thread id).
    return async (payload, t) => post(adapter, `slack:${t.chat}${t.replyTo ? `:${t.replyTo}` : ""}`, payload);
  }
  const { createDiscordAdapter } = await import("@chat-adapter/discord");
  const adapter = createDiscordAdapter({
    botToken: token,
    applicationId: "1",
    publicKey: "0".repeat(64),
    apiUrl: `${root}/v10`,
    logger: silent,
  });
  // Discord has no reply() and never sets message_reference: the post is unthreaded.
  return async (payload, t) => post(adapter, `discord:1300000000000000001:${t.chat}`, payload, t.replyTo);
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
