/**
 * The conformance harness of the web adapter. Per case: a fresh emulated channel (store, inbox
 * server and adapter, from `./testing`) and a fresh browser page open on the conversation
 * before anything is sent, so every message reaches the page over the live event stream. After each send the harness waits until
 * the page shows exactly the messages the store holds, in order, then reads the page: the
 * suite's observations are decoded from the rendered DOM (what a person sees), and media
 * facts from the bytes the browser itself fetched. One browser serves every case; close the
 * harness after the suite.
 */
import { type ConformanceHarness, conformanceMedia } from "@outbox/conformance";
import type { ChannelAdapter, ObservedMessage } from "@outbox/core";
import type { Browser, Page } from "playwright-core";
import { createEmulatedChannel } from "../testing/emulated-channel.js";
import { type LaunchBrowserOptions, launchBrowser } from "./browser.js";
import { decodeInbox, toObserved } from "./decode.js";
import { snapshotInbox } from "./snapshot.js";
import { waitForMessages } from "./wait.js";

/** Options of {@link createWebHarness}. */
export interface WebHarnessOptions {
  /** Suite label. Default `web`. */
  name?: string;
  /** How to launch the browser (binary, timeout). */
  browser?: LaunchBrowserOptions;
  /**
   * Called with each case's page before it opens the inbox: add init scripts, routes or
   * headers (the suite's own tests use it to tamper with the page and see the cases fail).
   */
  preparePage?: (page: Page) => Promise<unknown>;
  /** How long to wait for the page to show a delivery, in ms. Default 30 000. */
  settleTimeoutMs?: number;
}

/** The web harness: a `ConformanceHarness` plus `close()` for its browser. */
export interface WebHarness extends ConformanceHarness {
  /** Close the browser (call after the suite, e.g. in `afterAll`). */
  close(): Promise<void>;
}

/** Build the harness for `describeConformance`. */
export function createWebHarness(options: WebHarnessOptions = {}): WebHarness {
  let browser: Promise<Browser> | undefined;
  const settleTimeoutMs = options.settleTimeoutMs ?? 30_000;
  return {
    name: options.name ?? "web",
    async setup() {
      browser ??= launchBrowser(options.browser);
      const media = await conformanceMedia();
      const channel = await createEmulatedChannel({ media: media.policy });
      const { adapter, target, inbox } = channel;
      const context = await (await browser).newContext();
      context.setDefaultTimeout(settleTimeoutMs);
      const page = await context.newPage();
      await options.preparePage?.(page);
      await page.goto(channel.pageUrl);
      await page.waitForSelector("#ob-status[data-state=live]");
      let observed: ObservedMessage[] = [];
      /** Wait until the page shows the stored messages, then read it. */
      const settle = async (): Promise<void> => {
        const ids = (await inbox.store.list(target.to)).map((event) => event.message.id);
        await waitForMessages(page, ids, settleTimeoutMs);
        observed = toObserved(decodeInbox(await snapshotInbox(page)).filter((m) => m.author !== "user"));
      };
      const observedAdapter: ChannelAdapter = {
        ...adapter,
        name: adapter.name,
        capabilities: adapter.capabilities,
        async send(payload, to, sendOptions) {
          try {
            return await adapter.send(payload, to, sendOptions);
          } finally {
            await settle();
          }
        },
      };
      return {
        adapter: observedAdapter,
        target,
        observe: () => observed,
        inject: (fault) => channel.inject(fault),
        rateLimitRefusals: () => 0,
        teardown: async () => {
          await context.close();
          await channel.close();
        },
      };
    },
    async close() {
      const launched = browser;
      browser = undefined;
      if (launched) await (await launched).close();
    },
  };
}
