/**
 * The browser the web harness and the browser tests drive: a system Chromium through
 * `playwright-core` (an optional peer dependency, loaded on first use), headless, with the
 * flags that keep it from reaching out on its own. Playwright gives every launch a fresh
 * temporary profile (`--user-data-dir`) and removes it on close.
 */
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";

/** Where a system Chromium is looked for, in order, after `OUTBOX_CHROMIUM`. */
export const CHROMIUM_CANDIDATES: readonly string[] = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
];

/**
 * Flags every launch passes. Without the background-networking ones Chromium opens
 * connections of its own (component updates, sync, field trials), which a closed network refuses.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Options of {@link launchBrowser}. */
export interface LaunchBrowserOptions {
  /** Chromium binary. Default: `OUTBOX_CHROMIUM`, else the first of {@link CHROMIUM_CANDIDATES} that exists. */
  executablePath?: string;
  /** How long the launch may take, in ms. Default 60 000 (a busy machine starts Chromium slowly). */
  timeoutMs?: number;
}

/** The Chromium binary to use, or `undefined` when none is installed. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.OUTBOX_CHROMIUM;
  if (configured) return existsSync(configured) ? configured : undefined;
  return CHROMIUM_CANDIDATES.find((path) => existsSync(path));
}

/**
 * Why browser tests cannot run here, or `undefined` when a Chromium binary exists. Tests pass
 * it to `describe.skipIf(...)` so a skip always says what is missing.
 */
export function browserMissing(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (findChromium(env)) return undefined;
  return env.OUTBOX_CHROMIUM
    ? `OUTBOX_CHROMIUM=${env.OUTBOX_CHROMIUM} does not exist`
    : `no Chromium binary (looked for ${CHROMIUM_CANDIDATES.join(", ")}; install the Debian package chromium or set OUTBOX_CHROMIUM)`;
}

/** Launch a headless Chromium with {@link CHROMIUM_FLAGS} and a fresh profile. The caller closes it. */
export async function launchBrowser(options: LaunchBrowserOptions = {}): Promise<Browser> {
  const executablePath = options.executablePath ?? findChromium();
  if (!executablePath) throw new Error(`cannot launch a browser: ${browserMissing()}`);
  const { chromium } = await loadPlaywright();
  return chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_FLAGS],
    timeout: options.timeoutMs ?? 60_000,
  });
}

async function loadPlaywright(): Promise<typeof import("playwright-core")> {
  try {
    return await import("playwright-core");
  } catch (error) {
    throw new Error(
      `@outbox/web/conformance drives a browser with playwright-core, which is not installed. Fix: npm install -D playwright-core (${String(error)})`,
    );
  }
}
