/** Waiting for the inbox page to show what the store holds. */
import type { Page } from "playwright-core";

/** The little of the page's DOM the wait below touches (the package compiles without DOM types). */
type PageDocument = {
  querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null }>;
};

/** The ids of the articles the page shows, in order. Runs in the page (no closure, no named helpers). */
const shownIds = (): Array<string | null> =>
  Array.from(
    (globalThis as unknown as { document: PageDocument }).document.querySelectorAll(
      "#ob-messages article.ob-message",
    ),
  ).map((article) => article.getAttribute("data-id"));

/**
 * Wait until `#ob-messages` holds exactly the articles `ids`, in this order (the messages the
 * store holds): polled on animation frames, never a fixed sleep. Rejects naming both lists.
 */
export async function waitForMessages(page: Page, ids: string[], timeout: number): Promise<void> {
  try {
    await page.waitForFunction(
      (want) =>
        Array.from(
          (globalThis as unknown as { document: PageDocument }).document.querySelectorAll(
            "#ob-messages article.ob-message",
          ),
        )
          .map((article) => article.getAttribute("data-id"))
          .join("\n") === want,
      ids.join("\n"),
      { timeout, polling: "raf" },
    );
  } catch (error) {
    const shown = await page.evaluate(shownIds);
    throw new Error(
      `the inbox page did not show the stored messages within ${timeout} ms: stored [${ids.join(", ")}], shown [${shown.join(", ")}] (${String(error)})`,
    );
  }
}

/** The images of the page, as far as the wait below reads them. */
type PageImages = { document: { images: ArrayLike<{ complete: boolean }> } };

/**
 * Wait until every image of the inbox finished loading or failed (so an `onerror` would have
 * fired, and a screenshot shows them). Lazy images are scrolled into view first.
 */
export async function waitForImages(page: Page, timeout: number): Promise<void> {
  for (const image of await page.locator("#ob-messages img").all())
    await image.scrollIntoViewIfNeeded({ timeout });
  await page.waitForFunction(
    () => Array.from((globalThis as unknown as PageImages).document.images).every((image) => image.complete),
    undefined,
    { timeout, polling: "raf" },
  );
}
