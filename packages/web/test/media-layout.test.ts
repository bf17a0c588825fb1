/**
 * What a person sees of media in Chromium: a video with a small intrinsic size still gets a
 * usable player (not a 16×16 dot), and a voice note's player knows its duration before it is
 * played (its metadata is loaded).
 */
import { randomBytes } from "node:crypto";
import { fixturePath } from "@outbox/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebAdapter } from "../src/adapter.js";
import { waitForMessages } from "../src/conformance/wait.js";
import { startWebInbox, type WebInbox } from "../src/server/start.js";
import { createMemoryWebStore } from "../src/store/memory-store.js";
import { BROWSER_TIMEOUT_MS, browserLabel, noBrowser, useBrowser } from "./support/browser.js";

/** What the test reads of a `<video>` or `<audio>` in the page. */
type MediaElement = {
  readyState: number;
  duration: number;
  addEventListener(type: string, listener: () => void): void;
};

describe.skipIf(noBrowser)(`media as a person sees it ${browserLabel}`, { timeout: 120_000 }, () => {
  const handle = useBrowser();
  const store = createMemoryWebStore();
  const adapter = createWebAdapter({
    store,
    media: { localRoots: [fixturePath("png").replace(/[^/]+$/, "")] },
  });
  let inbox: WebInbox;
  beforeAll(async () => {
    inbox = await startWebInbox({ auth: { secret: randomBytes(32).toString("hex") }, store });
  });
  afterAll(async () => {
    await inbox?.close();
  });

  it("an album video and a voice note: a usable player, the duration known before playing", async () => {
    const to = { to: "media" };
    await adapter.send({ text: "album", mediaUrls: [fixturePath("mp4"), fixturePath("png")] }, to);
    const { context, page } = await handle.newPage();
    await page.goto(inbox.urlFor("media"));
    await page.waitForSelector("#ob-status[data-state=live]");
    // Delivered while the page is open: the article arrives over the event stream.
    await adapter.send({ text: "", mediaUrl: fixturePath("ogg"), audioAsVoice: true }, to);
    await waitForMessages(
      page,
      (await store.list("media")).map((e) => e.message.id),
      BROWSER_TIMEOUT_MS,
    );
    const video = page.locator("video").first();
    await video.evaluate((element: MediaElement) =>
      element.readyState >= 1
        ? undefined
        : new Promise<void>((resolve) => element.addEventListener("loadedmetadata", () => resolve())),
    );
    const box = await video.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(150);
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(100);
    const audio = page.locator('[data-kind="voice"] audio');
    const duration = await audio.evaluate(
      (element: MediaElement) =>
        new Promise<number>((resolve) => {
          const done = () => resolve(element.duration);
          if (element.readyState >= 1 && Number.isFinite(element.duration)) done();
          else element.addEventListener("durationchange", () => Number.isFinite(element.duration) && done());
          setTimeout(done, 5000);
        }),
    );
    expect(duration).toBeGreaterThan(0);
    expect(Number.isFinite(duration)).toBe(true);
    await context.close();
  });
});
