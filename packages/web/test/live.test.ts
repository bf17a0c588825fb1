/**
 * The event stream in Chromium: messages appear on an open page as they are delivered; when the
 * connection drops, or the server restarts, the page says so (`#ob-status`), and on reconnect
 * the browser resumes with `Last-Event-ID`: what was delivered meanwhile appears, nothing is
 * lost, nothing shows twice, and the server never sends an event twice.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebAdapter } from "../src/adapter.js";
import { decodeInbox } from "../src/conformance/decode.js";
import { snapshotInbox } from "../src/conformance/snapshot.js";
import { waitForMessages } from "../src/conformance/wait.js";
import { startWebInbox, type WebInbox } from "../src/server/start.js";
import { createMemoryWebStore } from "../src/store/memory-store.js";
import { BROWSER_TIMEOUT_MS, browserLabel, noBrowser, useBrowser } from "./support/browser.js";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.js";

/** Counts, in the page, the id of every event its EventSource receives. */
const COUNT_EVENTS = `window.__eventIds = [];
const NativeEventSource = window.EventSource;
window.EventSource = class extends NativeEventSource {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => window.__eventIds.push(event.lastEventId));
  }
};`;

describe.skipIf(noBrowser)(`live updates ${browserLabel}`, { timeout: 120_000 }, () => {
  const handle = useBrowser();
  const store = createMemoryWebStore();
  const auth = { secret: randomBytes(32).toString("hex") };
  const adapter = createWebAdapter({ store });
  let inbox: WebInbox;
  let proxy: TcpProxy;
  beforeAll(async () => {
    inbox = await startWebInbox({ auth, store });
    proxy = await startTcpProxy(() => inbox.port);
  });
  afterAll(async () => {
    await proxy?.close();
    await inbox?.close();
  });

  const ids = async (conversation: string) => (await store.list(conversation)).map((e) => e.message.id);
  const lastEventId = async (conversation: string) => (await store.list(conversation)).at(-1)?.id;
  const deliver = (conversation: string, text: string) => adapter.send({ text }, { to: conversation });

  async function open(conversation: string): Promise<{ page: Page; close(): Promise<void> }> {
    const { context, page } = await handle.newPage();
    await context.addInitScript(COUNT_EVENTS);
    const url = new URL(inbox.urlFor(conversation));
    url.port = String(proxy.port);
    await page.goto(url.href);
    await page.waitForSelector("#ob-status[data-state=live]");
    return { page, close: () => context.close() };
  }

  async function expectShownOnce(page: Page, conversation: string, texts: string[]) {
    await waitForMessages(page, await ids(conversation), BROWSER_TIMEOUT_MS);
    const shown = decodeInbox(await snapshotInbox(page, { probeMedia: false })).map((m) => m.text);
    expect(shown).toEqual(texts);
    const received = (await page.evaluate("window.__eventIds")) as string[];
    expect(new Set(received).size, `events received ${received.join(", ")}: none twice`).toBe(
      received.length,
    );
  }

  const eventsRequests = () => proxy.requests.filter((head) => /^GET \S*\/events\b/.test(head));
  /**
   * Where a reconnecting stream resumes: the browser's `Last-Event-ID` header, or, when the
   * stream received no event before it dropped, the `?after=` the page was rendered with.
   */
  const resumesAfter = (head: string | undefined) =>
    /^last-event-id: (.*)$/im.exec(head ?? "")?.[1] ??
    new URL(`http://x${head?.split(" ")[1] ?? "/"}`).searchParams.get("after");

  it("messages delivered while the page is open appear in order, without a reload", async () => {
    await deliver("live", "before the page opened");
    const { page, close } = await open("live");
    try {
      const texts = ["before the page opened"];
      for (const text of ["first live", "second live", "third live"]) {
        await deliver("live", text);
        texts.push(text);
        await expectShownOnce(page, "live", texts);
      }
      expect(await page.getAttribute("#ob-status", "data-state")).toBe("live");
    } finally {
      await close();
    }
  });

  it("a dropped connection: the page shows it is reconnecting, then resumes with Last-Event-ID; nothing lost or doubled", async () => {
    await deliver("drop", "one");
    const { page, close } = await open("drop");
    try {
      await deliver("drop", "two");
      await expectShownOnce(page, "drop", ["one", "two"]);
      const resumeFrom = await lastEventId("drop");
      const before = eventsRequests().length;
      proxy.drop({ refuse: true });
      await page.waitForSelector("#ob-status[data-state=reconnecting]");
      await deliver("drop", "three, while disconnected");
      await deliver("drop", "four, while disconnected");
      proxy.accept();
      await expectShownOnce(page, "drop", [
        "one",
        "two",
        "three, while disconnected",
        "four, while disconnected",
      ]);
      await page.waitForSelector("#ob-status[data-state=live]");
      const resumed = eventsRequests().slice(before).at(-1) ?? "";
      expect(resumed, "a live event was received: the browser sends it back").toMatch(
        new RegExp(`^last-event-id: ${resumeFrom}$`, "im"),
      );
      await deliver("drop", "five, after");
      await expectShownOnce(page, "drop", [
        "one",
        "two",
        "three, while disconnected",
        "four, while disconnected",
        "five, after",
      ]);
    } finally {
      await close();
    }
  });

  it("a server restart: the new server replays what the page missed, from the same store", async () => {
    await deliver("restart", "before the restart");
    const { page, close } = await open("restart");
    try {
      await expectShownOnce(page, "restart", ["before the restart"]);
      const resumeFrom = await lastEventId("restart");
      const before = eventsRequests().length;
      await inbox.close();
      await page.waitForSelector("#ob-status[data-state=reconnecting]");
      await deliver("restart", "while the server was down");
      inbox = await startWebInbox({ auth, store });
      await expectShownOnce(page, "restart", ["before the restart", "while the server was down"]);
      await page.waitForSelector("#ob-status[data-state=live]");
      expect(resumesAfter(eventsRequests().slice(before).at(-1))).toBe(resumeFrom);
    } finally {
      await close();
    }
  });
});
