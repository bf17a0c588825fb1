/**
 * One Chromium per test file: `useBrowser()` launches it before the file's tests and closes it
 * after. Files wrap their tests in `describe.skipIf(noBrowser)(…)` so a machine without a
 * Chromium binary reports the reason instead of failing.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { browserMissing, launchBrowser } from "../../src/conformance/browser.js";

/** Why the browser tests skip here, or `false` when a Chromium exists. */
export const noBrowser: string | false = browserMissing() ?? false;

/** The skip label naming what is missing. */
export const browserLabel = noBrowser ? `(skipped: ${noBrowser})` : "in Chromium";

/** Generous timeouts for a shared, busy machine. */
export const BROWSER_TIMEOUT_MS = 60_000;

/** What a test file uses: the browser, and fresh isolated pages. */
export interface BrowserHandle {
  /** The file's browser (available inside tests). */
  browser(): Browser;
  /** A fresh context (no shared cookies or storage) and a page in it. */
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
}

/** Launch one browser for the file (beforeAll) and close it (afterAll), with every context opened. */
export function useBrowser(): BrowserHandle {
  let current: Browser | undefined;
  beforeAll(async () => {
    if (!noBrowser) current = await launchBrowser();
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await current?.close();
  }, BROWSER_TIMEOUT_MS);
  const browser = (): Browser => {
    if (!current) throw new Error("the browser is not launched (use inside a test)");
    return current;
  };
  return {
    browser,
    async newPage() {
      const context = await browser().newContext();
      context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
      return { context, page: await context.newPage() };
    },
  };
}
