/**
 * Delivery at the platform's limit, on the real clock: N replies spread over C private
 * chats, and over C groups, all sent at once through the Telegram adapter to the emulator
 * (another process) enforcing Telegram's flood limits (1/s per chat with a burst of 5,
 * 20/min per group, 30/s overall); the same over C Slack channels (chat.postMessage 1/s per
 * channel, burst 4) and C Discord channels (5 per 5 s per channel, 50/s per bot), each adapter with its
 * defaults against its emulator; and fewer replies over Matrix rooms at Synapse's default
 * `rc_message` (0.2 events a second per user over every room, bursts of 10), Teams
 * conversations at the connector's four per-conversation windows (load-teams.ts: the
 * 60-in-30-s window binds), and C Google Chat spaces at the per-space write quota as the
 * adapter declares it (a burst of 3, then one a second; 3,000 a minute per project).
 * Reports lost and duplicated messages, the 429s the
 * emulator answered, wall time over the floor the limits allow, and the client CPU per
 * message under load over the same message sent alone (emulator without limits), alone
 * meaning at the load's pace (the goal) and back to back (gated, hot caches). WhatsApp's
 * kind (many people and one long reply, the pair window scaled) is in load-whatsapp.ts.
 * Goals: 0 lost, 0 duplicates, 0 × 429, wall ≤ 1.05× the floor, CPU ≤ 1.2× alone (Telegram);
 * lost, duplicates and 429s are absolute gates at 0, quick runs included.
 */
import { createDiscordAdapter } from "@outbox/discord";
import { createGoogleChatAdapter } from "@outbox/googlechat";
import { createMatrixAdapter } from "@outbox/matrix";
import { createSlackAdapter } from "@outbox/slack";
import { createTeamsAdapter } from "@outbox/teams";
import { EMULATOR_IDENTITY } from "@outbox/teams/testing";
import { createTelegramAdapter } from "@outbox/telegram";
import { skippingClock } from "../support/adapter-bench.js";
import { CHATS, type EmulatorProcess, loadChannel, startEmulatorProcess } from "../support/emulator-child.js";
import { deliveryMetrics, loadReply, tally } from "../support/load-delivery.js";
import { measure } from "../support/measure.js";
import type { Metric, Suite } from "../support/metrics.js";
import { round, stats } from "../support/stats.js";
import { TEAMS_LOAD, teamsFloor } from "./load-teams.js";
import { startWhatsAppLoadEmulator, whatsappLoad } from "./load-whatsapp.js";

/** The emulator's default limits (adapters/telegram/src/testing/emulator/rate-limits.ts). */
const LIMITS = { perChat: 1, perChatBurst: 5, perGroupPerMinute: 20, global: 30 };

/**
 * Slack's emulator: chat.postMessage 1/s per channel, burst 4. Discord's: 5 per 5 s window
 * per channel, and 50 requests a second per bot over all routes (a bucket of 50).
 */
const SLACK = { perChannel: 1, burst: 4 };
const DISCORD = { limit: 5, windowS: 5, globalPerSecond: 50 };
/**
 * Matrix's emulator: Synapse's default `rc_message`, one bucket per user over every room. At
 * 0.2/s the Matrix scenario sends its own, smaller count: {@link MATRIX_LOAD}.
 */
const MATRIX = { perSecond: 0.2, burst: 10 };
/** Google Chat's emulator: the per-space quota as the adapter declares it, a burst of 3 then one a second. */
const GOOGLECHAT = { perSpace: 1, burst: 3 };
/** Replies and spaces of the Google Chat scenario: quick sends 6 to each space, past its burst, so the quota binds. */
const GOOGLECHAT_LOAD = { full: { total: 1_000, chats: 50 }, quick: { total: 30, chats: 5 } };
/** Replies and rooms of the Matrix scenario: the burst, then 20 (full) or 1 (quick) at the limit's pace. */
const MATRIX_LOAD = { full: { total: 30, chats: 10 }, quick: { total: 11, chats: 4 } };

/** Where the load goes: Telegram private chats or groups, Slack, Discord or Google Chat channels, Matrix rooms or Teams conversations. */
type Kind = "private" | "group" | "slack" | "discord" | "matrix" | "teams" | "googlechat";

/** Shortest time the emulator's limits allow for `total` messages spread evenly over `chats`, in ms. */
export function floorMs(total: number, chats: number, kind: Kind): number {
  const perChat = Math.ceil(total / chats);
  if (kind === "matrix") return (Math.max(0, total - MATRIX.burst) / MATRIX.perSecond) * 1000;
  if (kind === "teams") return teamsFloor(total, chats).ms;
  if (kind === "slack") return (Math.max(0, perChat - SLACK.burst) / SLACK.perChannel) * 1000;
  if (kind === "googlechat") return (Math.max(0, perChat - GOOGLECHAT.burst) / GOOGLECHAT.perSpace) * 1000;
  if (kind === "discord") {
    const windows = (Math.ceil(perChat / DISCORD.limit) - 1) * DISCORD.windowS;
    const global = Math.max(0, total - DISCORD.globalPerSecond) / DISCORD.globalPerSecond;
    return Math.max(windows, global) * 1000;
  }
  return telegramFloorMs(total, chats, kind === "group");
}

function telegramFloorMs(total: number, chats: number, groups: boolean): number {
  const perChat = Math.ceil(total / chats);
  const chatFloor = Math.max(0, perChat - LIMITS.perChatBurst) / LIMITS.perChat;
  const groupFloor = groups
    ? (Math.max(0, perChat - LIMITS.perGroupPerMinute) * 60) / LIMITS.perGroupPerMinute
    : 0;
  const globalFloor = Math.max(0, total - LIMITS.global) / LIMITS.global;
  return Math.max(chatFloor, groupFloor, globalFloor) * 1000;
}

/** The adapter (default settings, real clock) and the target of reply `i` for `kind`. */
function sender(kind: Kind, chats: number, emulator: EmulatorProcess) {
  const { token, apiRoot } = emulator;
  if (kind === "slack")
    return {
      adapter: createSlackAdapter({ token, slackApiUrl: apiRoot }),
      chatOf: (i: number) => loadChannel(kind, (i % chats) + 1),
    };
  if (kind === "matrix")
    return {
      adapter: createMatrixAdapter({ homeserver: apiRoot, accessToken: token }),
      chatOf: (i: number) => loadChannel(kind, (i % chats) + 1),
    };
  if (kind === "teams")
    return {
      // The child gives the connector as the API root and the token endpoint as the "token".
      adapter: createTeamsAdapter({ ...EMULATOR_IDENTITY, tokenUrl: token, serviceUrl: apiRoot }),
      chatOf: (i: number) => loadChannel(kind, (i % chats) + 1),
    };
  if (kind === "googlechat")
    return {
      // The emulator's service account key travels as the "token".
      adapter: createGoogleChatAdapter({ credentials: token, apiUrl: apiRoot }),
      chatOf: (i: number) => `spaces/OUTBOXload${(i % chats) + 1}`,
    };
  if (kind === "discord")
    return {
      adapter: createDiscordAdapter({ token, api: apiRoot }),
      chatOf: (i: number) => loadChannel(kind, (i % chats) + 1),
    };
  return {
    adapter: createTelegramAdapter({ token, apiRoot }),
    chatOf: (i: number) => String(kind === "group" ? -((i % chats) + 1) : (i % chats) + 1),
  };
}

async function scenario(kind: Kind, total: number, chats: number, emulator: EmulatorProcess) {
  try {
    const { adapter, chatOf } = sender(kind, chats, emulator);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const receipts = await Promise.all(
      Array.from({ length: total }, (_, i) => adapter.send({ text: loadReply(i) }, { to: chatOf(i) })),
    );
    const used = process.cpuUsage(cpu);
    const wallMs = performance.now() - started;
    const seen = await emulator.stats();
    const { lost, duplicates } = tally(
      Object.values(seen.messages).flat(),
      Array.from({ length: total }, (_, i) => `Reply ${i}:`),
      (text) => [/^Reply \d+:/.exec(text)?.[0] ?? text],
    );
    return {
      lost,
      duplicates,
      failed: receipts.filter((r) => !r.ok).length,
      refused429: seen.refused429,
      wallMs,
      floorMs: floorMs(total, chats, kind),
      cpuPerMessageMs: (used.user + used.system) / 1000 / total,
    };
  } finally {
    emulator.close();
  }
}

/** Client CPU per message for the same reply sent alone (no limits, no queue): back to back, and at the load's pace. */
async function alone(quick: boolean, emulator: EmulatorProcess) {
  try {
    const adapter = createTelegramAdapter({
      token: emulator.token,
      apiRoot: emulator.apiRoot,
      clock: skippingClock(),
    });
    let i = 0;
    const measured = await measure(
      [{ name: "alone", run: () => adapter.send({ text: loadReply(i++) }, { to: "42" }) }],
      {
        rounds: quick ? 3 : 7,
        perRound: quick ? 10 : 100,
        warmup: { minBatches: quick ? 1 : 5, maxBatches: quick ? 2 : 30 },
      },
    );
    const backToBack = stats(measured.cpuMs.alone ?? []);
    return { backToBack, pacedMs: await atPace(adapter, quick ? 20 : 300, i) };
  } finally {
    emulator.close();
  }
}

/**
 * Client CPU per message for the same reply sent alone at the load's pace (one message, then
 * idle until the next 1/30 s slot): process CPU over the whole run divided by the messages,
 * as the load's own figure is taken. Back to back, every send finds the code and caches hot
 * that a send after 33 idle milliseconds does not (bare grammY pays the same: see
 * bench/README.md), so this is the "alone" the load is compared with.
 */
async function atPace(
  adapter: ReturnType<typeof createTelegramAdapter>,
  count: number,
  first: number,
): Promise<number> {
  const gapMs = 1000 / LIMITS.global;
  const start = process.cpuUsage();
  for (let n = 0; n < count; n++) {
    const began = performance.now();
    await adapter.send({ text: loadReply(first + n) }, { to: "42" });
    const left = gapMs - (performance.now() - began);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / count;
}

/** Replies and places of a scenario: Matrix and Teams send their own counts (see their constants). */
function shape(kind: Kind, quick: boolean, total: number, chats: number): { total: number; chats: number } {
  if (kind === "matrix") return MATRIX_LOAD[quick ? "quick" : "full"];
  if (kind === "googlechat") return GOOGLECHAT_LOAD[quick ? "quick" : "full"];
  if (kind === "teams") {
    const { perConversation, chats: c } = TEAMS_LOAD[quick ? "quick" : "full"];
    return { total: perConversation * c, chats: c };
  }
  return { total, chats };
}

/** The load suite. */
export const loadSuite: Suite = {
  name: "load",
  async run({ quick }) {
    const total = quick ? 60 : 1_000;
    const chats = quick ? 20 : CHATS;
    // Started together (each process takes seconds to start); one limited emulator per scenario.
    const kinds = ["private", "group", "slack", "discord", "matrix", "teams", "googlechat"] as const;
    const whatsapp = startWhatsAppLoadEmulator(chats);
    const [open, ...limited] = await Promise.all([
      startEmulatorProcess(false),
      ...kinds.map((kind) =>
        startEmulatorProcess(true, kind === "private" || kind === "group" ? "telegram" : kind),
      ),
    ]);
    const single = await alone(quick, open as EmulatorProcess);
    const metrics: Metric[] = [];
    for (const [index, kind] of kinds.entries()) {
      const { total: n, chats: c } = shape(kind, quick, total, chats);
      const run = await scenario(kind, n, c, limited[index] as EmulatorProcess);
      const id = `load.${kind}`;
      const places = {
        private: "private chats",
        group: "groups",
        slack: "Slack channels",
        discord: "Discord channels",
        matrix: "Matrix rooms",
        teams: "Teams conversations",
        googlechat: "Google Chat spaces",
      };
      metrics.push(
        ...deliveryMetrics({
          id,
          where: `${n} replies to ${c} ${places[kind]}`,
          ...run,
          refusedBy: "the emulator's enforced limits",
          ...(kind === "teams" ? { floorNote: `(binding: ${teamsFloor(n, c).binding})` } : {}),
          quick,
        }),
      );
      // CPU alone is measured on Telegram only.
      if (kind === "private" || kind === "group")
        metrics.push(
          {
            id: `${id}.cpuUnderLoadOverAlone`,
            value: round(run.cpuPerMessageMs / single.backToBack.median),
            unit: "×",
            spread: round(single.backToBack.spread),
            gate: !quick,
            note: `client CPU per message: ${round(run.cpuPerMessageMs)} ms under load, ${round(single.backToBack.median)} ms alone back to back (hot)`,
          },
          {
            id: `${id}.cpuUnderLoadOverAlonePaced`,
            value: round(run.cpuPerMessageMs / single.pacedMs),
            unit: "×",
            goal: { op: "<=", target: 1.2 },
            note: `client CPU per message: ${round(run.cpuPerMessageMs)} ms under load, ${round(single.pacedMs)} ms alone at the load's pace (one message per 1/${LIMITS.global} s)`,
          },
        );
    }
    metrics.push(...(await whatsappLoad(quick, whatsapp, chats)));
    return metrics;
  },
};
