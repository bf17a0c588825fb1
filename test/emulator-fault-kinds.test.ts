/**
 * Every platform emulator applies every fault kind it is given (docs/conformance.md, "Faults"):
 * one request of the platform's own shape, straight over HTTP, suffers each kind as the docs
 * say, so a tester never believes an adapter survived a fault its emulator ignored. The
 * emulator's `faultTargets` are the names docs/conformance.md lists ("Fault targets").
 */

import type { Fault } from "@outbox/core";
import { FAULT_KINDS, type PlatformEmulator } from "@outbox/core/testing";
import { DEFAULT_CHANNEL, startDiscordEmulator } from "@outbox/discord/testing";
import { startGoogleChatEmulator } from "@outbox/googlechat/testing";
import { startMatrixEmulator } from "@outbox/matrix/testing";
import { startSlackEmulator } from "@outbox/slack/testing";
import { startTeamsEmulator } from "@outbox/teams/testing";
import { startTelegramEmulator } from "@outbox/telegram/testing";
import { startWhatsAppEmulator } from "@outbox/whatsapp/testing";
import { describe, expect, it } from "vitest";
import { documentedTargets } from "./support/fault-targets.js";

/** An emulator and one request to it that reaches its fault handling. */
interface Probe {
  emulator: PlatformEmulator;
  url: string;
  init: RequestInit;
}

/** Each platform: start its emulator, and the request a probe makes (its method, the first fault target it names). */
const platforms: Array<[string, () => Promise<Probe>]> = [
  [
    "telegram",
    async () => {
      const emulator = await startTelegramEmulator();
      return { emulator, url: `${emulator.apiRoot}/bot${emulator.token}/getMe`, init: { method: "POST" } };
    },
  ],
  [
    "slack",
    async () => {
      const emulator = await startSlackEmulator();
      const body = new URLSearchParams({ token: emulator.token });
      return { emulator, url: `${emulator.slackApiUrl}auth.test`, init: { method: "POST", body } };
    },
  ],
  [
    "discord",
    async () => {
      const emulator = await startDiscordEmulator();
      const headers = { authorization: `Bot ${emulator.token}` };
      return { emulator, url: `${emulator.api}/v10/channels/${DEFAULT_CHANNEL}`, init: { headers } };
    },
  ],
  [
    "whatsapp",
    async () => {
      const emulator = await startWhatsAppEmulator();
      const headers = { authorization: `Bearer ${emulator.token}`, "content-type": "application/json" };
      const body = JSON.stringify({ messaging_product: "whatsapp", to: "15550001234", type: "text" });
      const url = `${emulator.graphApiUrl}/v25.0/${emulator.phoneNumberId}/messages`;
      return { emulator, url, init: { method: "POST", headers, body } };
    },
  ],
  [
    "teams",
    async () => {
      const emulator = await startTeamsEmulator({ conversations: [{ id: "a:1probe" }] });
      const headers = { authorization: "Bearer probe", "content-type": "application/json" };
      const body = JSON.stringify({ type: "message", textFormat: "plain", text: "probe" });
      const url = `${emulator.serviceUrl}v3/conversations/a%3A1probe/activities`;
      return { emulator, url, init: { method: "POST", headers, body } };
    },
  ],
  [
    "googlechat",
    async () => {
      const emulator = await startGoogleChatEmulator({ spaces: [{ name: "spaces/PROBE" }] });
      const headers = { authorization: "Bearer probe", "content-type": "application/json" };
      const body = JSON.stringify({ text: "probe" });
      const url = `${emulator.apiUrl}/v1/spaces/PROBE/messages`;
      return { emulator, url, init: { method: "POST", headers, body } };
    },
  ],
  [
    "matrix",
    async () => {
      const emulator = await startMatrixEmulator();
      const headers = { authorization: `Bearer ${emulator.accessToken}` };
      return { emulator, url: `${emulator.homeserver}/_matrix/client/v3/account/whoami`, init: { headers } };
    },
  ],
];

/** One fault of each kind (a 503, a refusal naming itself). */
const faults: Record<Fault["kind"], Fault> = {
  "rate-limit": { kind: "rate-limit", retryAfterMs: 1500 },
  "server-error": { kind: "server-error", status: 503 },
  reset: { kind: "reset" },
  reject: { kind: "reject", description: "refused-by-fault-7q" },
  "reset-before-write": { kind: "reset-before-write" },
  "reset-after-processed": { kind: "reset-after-processed" },
  "timeout-after-processed": { kind: "timeout-after-processed" },
};

/** The kinds that end the exchange without an answer; the client sees its connection fail. */
const unanswered = new Set<Fault["kind"]>(["reset", "reset-before-write", "reset-after-processed"]);

describe.each(platforms)("%s emulator", (name, start) => {
  it("knows every fault kind core lists", () => {
    expect(Object.keys(faults).sort()).toEqual([...FAULT_KINDS].sort());
  });

  it.each(FAULT_KINDS)("applies %s", async (kind) => {
    const { emulator, url, init } = await start();
    try {
      emulator.inject(faults[kind]);
      // A withheld answer never comes: the client's own timeout ends the wait.
      const signal = AbortSignal.timeout(kind === "timeout-after-processed" ? 300 : 5000);
      const answer = await fetch(url, { ...init, signal }).then(
        async (res) => ({ status: res.status, text: await res.text() }),
        (error: Error) => ({ status: 0, text: error.name }),
      );
      if (kind === "reset-before-write") {
        expect(emulator.refusedConnections()).toBe(1);
        expect(emulator.requests).toEqual([]);
      } else expect(emulator.requests.map((request) => request.status)).toEqual([answer.status]);
      if (unanswered.has(kind)) expect(answer).toEqual({ status: 0, text: "TypeError" });
      if (kind === "timeout-after-processed") expect(answer).toEqual({ status: 0, text: "TimeoutError" });
      if (kind === "rate-limit") expect(answer.status).toBe(429);
      if (kind === "server-error") expect(answer.status).toBe(503);
      if (kind === "reject") expect(answer.text).toContain("refused-by-fault-7q");
    } finally {
      await emulator.close();
    }
  });

  it("names its fault targets as docs/conformance.md lists them", async () => {
    const { emulator } = await start();
    await emulator.close();
    expect([...emulator.faultTargets].sort()).toEqual(documentedTargets().get(name)?.sort());
  });
});
