/**
 * A platform's emulator in its own process, so the client's CPU is measured alone. The
 * parent talks to it over IPC: it answers `{ apiRoot, token }` once listening, and to
 * `stats` with what it received (messages per chat, HTTP requests by status).
 */
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import { fileURLToPath } from "node:url";

/** What the emulator saw since it started. */
export interface EmulatorStats {
  /** HTTP requests answered. */
  requests: number;
  /** Of which answered 429 (its own flood limits). */
  refused429: number;
  /** Of which dropped (connection reset, status 0). */
  resets: number;
  /** Texts (or captions) that arrived, per chat id. */
  messages: Record<string, string[]>;
}

/** A running emulator process. */
export interface EmulatorProcess {
  /** The client's base URL (grammY `apiRoot`, Slack `slackApiUrl`, Discord REST `api`). */
  apiRoot: string;
  token: string;
  stats(): Promise<EmulatorStats>;
  close(): void;
}

/** Emulators this module can start. */
export type Platform = "telegram" | "slack" | "discord" | "whatsapp" | "matrix" | "teams" | "googlechat";

/** The Teams emulator's conversation (a personal chat the bot is in). */
export const TEAMS_TO = "a:1bench";

/** The Google Chat emulator's space (the app is a member). */
export const GOOGLECHAT_SPACE = "spaces/OUTBOXbench";

/** The person the WhatsApp emulator's conversation is with (they wrote first). */
export const WHATSAPP_TO = "15550000042";

/** The WhatsApp emulator's default Phone number ID. */
export const WHATSAPP_PHONE_NUMBER_ID = "100000000000001";

/**
 * The WhatsApp emulator's limits with `limits` on, shared by the load's adapter: Meta's
 * throughput (80/s) and pair burst (45), the pair window 6 times faster (one message per
 * second per person instead of every 6 s), so a long reply to one person takes seconds
 * (bench/suites/load-whatsapp.ts says why not faster).
 */
export const WHATSAPP_LOAD_LIMITS = { pairIntervalMs: 1000 };

/** The `i`-th (1…CHATS) extra person who wrote to the WhatsApp emulator's number, for load. */
export const whatsappRecipient = (i: number) => `1555100${String(i).padStart(4, "0")}`;

/** Chats the Telegram emulator knows: 42, privates 1…n, groups -1…-n. */
export const CHATS = 50;
/** The channel the Slack emulator knows. */
export const SLACK_CHANNEL = "C0BENCH";

/** The `i`-th (1…CHATS) extra channel the Slack, Discord, Matrix or Teams emulator knows, for load. */
export function loadChannel(platform: "slack" | "discord" | "matrix" | "teams", i: number): string {
  if (platform === "matrix") return `!load${i}:outbox.test`;
  if (platform === "teams") return `a:1load${i}`;
  return platform === "slack" ? `C0LOAD${i}` : (1100000000000001000n + BigInt(i)).toString();
}

const loadChannels = (platform: "slack" | "discord" | "matrix" | "teams", chats: number) =>
  Array.from({ length: chats }, (_, i) => loadChannel(platform, i + 1));

/** Texts per channel, for channels with any. */
function perChannel(ids: readonly string[], observe: (id: string) => { text?: string; caption?: string }[]) {
  const messages: Record<string, string[]> = {};
  for (const id of ids) {
    const arrived = texts(observe(id));
    if (arrived.length > 0) messages[id] = arrived;
  }
  return messages;
}

/**
 * Start an emulator in a child process (`limits`: the platform's enforced limits on or off;
 * `chats`: how many load chats / channels it knows, default {@link CHATS}).
 */
export async function startEmulatorProcess(
  limits: boolean,
  platform: Platform = "telegram",
  chats = CHATS,
): Promise<EmulatorProcess> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--conditions=source",
      fileURLToPath(import.meta.url),
      platform,
      limits ? "limits" : "open",
      String(chats),
    ],
    { stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  if (child.pid !== undefined) raisePriority(child.pid);
  const pending: Array<(value: unknown) => void> = [];
  child.on("message", (message) => pending.shift()?.(message));
  const next = () => new Promise<unknown>((resolve) => pending.push(resolve));
  const { apiRoot, token } = (await next()) as { apiRoot: string; token: string };
  return {
    apiRoot,
    token,
    stats: () => {
      const answer = next();
      child.send("stats");
      return answer as Promise<EmulatorStats>;
    },
    close: () => child.kill(),
  };
}

/** How far above the normal priority an emulator runs (a nice value, lower is sooner). */
const EMULATOR_NICE = -10;
let priorityRefused = false;

/**
 * The emulator stands in for a platform whose servers do not share the client's CPU. On a
 * loaded machine its process can be left unscheduled for a second; the requests the client
 * paced meanwhile are then judged all at once, against a bucket that refilled only to its
 * capacity, and answered with 429s the client's pacing did not cause. So it runs at a
 * higher priority where the system allows it (root, CAP_SYS_NICE), said once where it does
 * not; this narrows that flakiness on a shared machine without removing it (bench/README.md).
 */
function raisePriority(pid: number): void {
  try {
    setPriority(pid, EMULATOR_NICE);
  } catch (error) {
    if (priorityRefused) return;
    priorityRefused = true;
    console.log(
      `  emulators run at the normal priority (${error instanceof Error ? error.message : String(error)}): on a loaded machine their stalls can add 429s`,
    );
  }
}

/** What the child needs of any emulator. */
interface Running {
  apiRoot: string;
  token: string;
  requests: readonly { status: number }[];
  messages(): Record<string, string[]>;
}

const texts = (observed: { text?: string; caption?: string }[]) =>
  observed.map((m) => m.text ?? m.caption ?? "");

/** Start the emulator in this process (each platform's module loaded only when used, so children start fast). */
async function start(platform: Platform, limits: boolean, chats: number): Promise<Running> {
  if (platform === "slack") {
    const { startSlackEmulator } = await import("@outbox/slack/testing");
    const ids = [SLACK_CHANNEL, ...loadChannels("slack", chats)];
    const emulator = await startSlackEmulator({
      channels: ids.map((id) => ({ id })),
      ...(limits ? {} : { rateLimits: false }),
    });
    return {
      apiRoot: emulator.slackApiUrl,
      token: emulator.token,
      requests: emulator.requests,
      messages: () => perChannel(ids, (id) => emulator.observe(id)),
    };
  }
  if (platform === "whatsapp") {
    const { startWhatsAppEmulator } = await import("@outbox/whatsapp/testing");
    const emulator = await startWhatsAppEmulator({ limits: limits ? WHATSAPP_LOAD_LIMITS : false });
    const ids = [WHATSAPP_TO, ...Array.from({ length: chats }, (_, i) => whatsappRecipient(i + 1))];
    for (const id of ids) emulator.seedMessage(id, "hi");
    return {
      apiRoot: emulator.graphApiUrl,
      token: emulator.token,
      requests: emulator.requests,
      messages: () => perChannel(ids, (id) => emulator.observe(id)),
    };
  }
  if (platform === "teams") {
    const { startTeamsEmulator } = await import("@outbox/teams/testing");
    const ids = [TEAMS_TO, ...loadChannels("teams", chats)];
    const emulator = await startTeamsEmulator({
      conversations: ids.map((id) => ({ id })),
      ...(limits ? {} : { rateLimits: false }),
    });
    // The connector's URL as the API root, the token endpoint as the "token" (the identity is the emulator's default).
    return {
      apiRoot: emulator.serviceUrl,
      token: emulator.tokenUrl,
      requests: emulator.requests,
      messages: () => perChannel(ids, (id) => emulator.observe(id)),
    };
  }
  if (platform === "googlechat") {
    const { startGoogleChatEmulator } = await import("@outbox/googlechat/testing");
    const ids = [GOOGLECHAT_SPACE, ...Array.from({ length: chats }, (_, i) => `spaces/OUTBOXload${i + 1}`)];
    const emulator = await startGoogleChatEmulator({
      spaces: ids.map((name) => ({ name })),
      ...(limits ? {} : { rateLimits: false }),
    });
    // The API root, and the service account key (its token_uri the emulator's) as the "token".
    return {
      apiRoot: emulator.apiUrl,
      token: JSON.stringify(emulator.credentials),
      requests: emulator.requests,
      messages: () => perChannel(ids, (id) => emulator.observe(id)),
    };
  }
  if (platform === "matrix") {
    const { DEFAULT_ROOM, startMatrixEmulator } = await import("@outbox/matrix/testing");
    const ids = [DEFAULT_ROOM, ...loadChannels("matrix", chats)];
    // Limits on: Synapse's default `rc_message` (0.2 events a second, bursts of 10).
    const emulator = await startMatrixEmulator({
      rooms: ids.map((id) => ({ id })),
      ...(limits ? {} : { rateLimit: false }),
    });
    return {
      apiRoot: emulator.homeserver,
      token: emulator.accessToken,
      requests: emulator.requests,
      messages: () => perChannel(ids, (id) => emulator.observe(id)),
    };
  }
  if (platform === "discord") {
    const { DEFAULT_CHANNEL, startDiscordEmulator } = await import("@outbox/discord/testing");
    const ids = [DEFAULT_CHANNEL, ...loadChannels("discord", chats)];
    const emulator = await startDiscordEmulator({
      channels: ids.map((id) => ({ id })),
      ...(limits ? {} : { messageBucket: false, globalPerSecond: false }),
    });
    return {
      apiRoot: emulator.api,
      token: emulator.token,
      requests: emulator.requests,
      messages: () => perChannel(ids, (id) => emulator.observe(id)),
    };
  }
  const { startTelegramEmulator } = await import("@outbox/telegram/testing");
  const ids = Array.from({ length: chats }, (_, i) => i + 1);
  const all = [42, ...ids, ...ids.map((id) => -id)];
  // One emulator token may stand for a fleet of bots, each with its own overall limit
  // (bench/suites/fleet.ts): their sum is the emulator's.
  const bots = Number(process.env.OUTBOX_BENCH_BOTS ?? 1);
  const emulator = await startTelegramEmulator({
    rateLimits: limits ? (bots > 1 ? { globalPerSecond: 30 * bots } : {}) : false,
    chats: all.map((id) => ({ id })),
  });
  return {
    apiRoot: emulator.apiRoot,
    token: emulator.token,
    requests: emulator.requests,
    messages: () => perChannel(all.map(String), (id) => emulator.observe(Number(id))),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  const emulator = await start(
    process.argv[2] as Platform,
    process.argv[3] === "limits",
    Number(process.argv[4]),
  );
  process.on("message", () => {
    process.send?.({
      requests: emulator.requests.length,
      refused429: emulator.requests.filter((r) => r.status === 429).length,
      resets: emulator.requests.filter((r) => r.status === 0).length,
      messages: emulator.messages(),
    } satisfies EmulatorStats);
  });
  process.on("disconnect", () => process.exit(0));
  process.send({ apiRoot: emulator.apiRoot, token: emulator.token });
}
