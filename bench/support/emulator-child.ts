/**
 * The Telegram emulator in its own process, so the client's CPU is measured alone. The
 * parent talks to it over IPC: it answers `{ apiRoot, token }` once listening, and to
 * `stats` with what it received (messages per chat, HTTP requests by status).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startTelegramEmulator } from "@outbox/telegram/testing";

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
  apiRoot: string;
  token: string;
  stats(): Promise<EmulatorStats>;
  close(): void;
}

/** Chats the emulator knows: 42, privates 1…n, groups -1…-n. */
export const CHATS = 50;

/** Start the emulator in a child process (`limits`: Telegram's flood limits on or off). */
export async function startEmulatorProcess(limits: boolean): Promise<EmulatorProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=source", fileURLToPath(import.meta.url), limits ? "limits" : "open"],
    { stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
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

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  const ids = Array.from({ length: CHATS }, (_, i) => i + 1);
  const emulator = await startTelegramEmulator({
    rateLimits: process.argv[2] === "limits" ? {} : false,
    chats: [{ id: 42 }, ...ids.map((id) => ({ id })), ...ids.map((id) => ({ id: -id }))],
  });
  process.on("message", () => {
    const messages: Record<string, string[]> = {};
    for (const id of [42, ...ids, ...ids.map((id) => -id)]) {
      const texts = emulator.observe(id).map((m) => m.text ?? m.caption ?? "");
      if (texts.length > 0) messages[id] = texts;
    }
    process.send?.({
      requests: emulator.requests.length,
      refused429: emulator.requests.filter((r) => r.status === 429).length,
      resets: emulator.requests.filter((r) => r.status === 0).length,
      messages,
    } satisfies EmulatorStats);
  });
  process.on("disconnect", () => process.exit(0));
  process.send({ apiRoot: emulator.apiRoot, token: emulator.token });
}
