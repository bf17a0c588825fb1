/**
 * The browser harness judges the page, not the store: with the store intact and only the page
 * tampered with (an init script rewriting the DOM as it is built), the cases meant to catch it
 * fail, for that reason. Over the store, the web renderer broken in a line-structure way fails
 * the line-structure case meant to catch it.
 */
import {
  brokenRenderers,
  type ConformanceHarness,
  conformanceCases,
  conformanceMedia,
  runCase,
} from "@outbox/conformance";
import { createAdapter, type ObservedMessage, type Renderer } from "@outbox/core";
import { afterAll, describe, expect, it } from "vitest";
import { webCapabilities } from "../src/capabilities.js";
import { createWebHarness, type WebHarness } from "../src/conformance/index.js";
import { webRenderer } from "../src/render/renderer.js";
import { createMemoryWebStore } from "../src/store/memory-store.js";
import { observeMessages } from "../src/testing/observe.js";
import { createWebTransport } from "../src/transport/transport.js";
import { browserLabel, noBrowser } from "./support/browser.js";

/** An init script applying `fix(element)` to every element matching `selector`, now and later. */
const tamper = (selector: string, fix: string) => `new MutationObserver(() => {
  for (const el of document.querySelectorAll(${JSON.stringify(selector)})) (${fix})(el);
}).observe(document, { childList: true, subtree: true });`;

const testCase = (id: string) => {
  const found = conformanceCases.find((c) => c.id === id);
  expect(found, id).toBeDefined();
  return found as NonNullable<typeof found>;
};

describe.skipIf(noBrowser)(`the web harness's teeth ${browserLabel}`, { timeout: 120_000 }, () => {
  const harnesses: WebHarness[] = [];
  const tampered = (selector: string, fix: string): WebHarness => {
    const harness = createWebHarness({
      name: "web, tampered page",
      preparePage: (page) => page.addInitScript(tamper(selector, fix)),
    });
    harnesses.push(harness);
    return harness;
  };
  afterAll(() => Promise.all(harnesses.map((harness) => harness.close())), 60_000);

  it("a page that drops bold (the words stay) fails text.formatting on the decoded spans", async () => {
    const harness = tampered(".ob-text strong", "(el) => el.replaceWith(...el.childNodes)");
    await expect(runCase(testCase("text.formatting"), harness, { strict: true })).rejects.toThrow(/bold/);
  });

  it("a page that hides the image fails media.image.url: what is not rendered is not observed", async () => {
    const harness = tampered("figure.ob-media", '(el) => { el.style.display = "none"; }');
    await expect(runCase(testCase("media.image.url"), harness, { strict: true })).rejects.toThrow(
      /sha256 of image.png: expected undefined/,
    );
  });

  it("a page whose media link points at other bytes fails media.document on the sha256 the browser fetched", async () => {
    const harness = tampered("a.ob-download", '(el) => el.setAttribute("href", "./")');
    await expect(runCase(testCase("media.document"), harness, { strict: true })).rejects.toThrow(/sha256/);
  });
});

/** The web adapter's parts with this renderer, observed through the store's decoder. */
const storeHarness = (renderer: Renderer): ConformanceHarness => ({
  name: "web (store), broken renderer",
  async setup() {
    const store = createMemoryWebStore();
    const observed: ObservedMessage[] = [];
    const unsubscribe = store.subscribe("teeth", (event) =>
      observed.push(...observeMessages([event.message])),
    );
    const adapter = createAdapter({
      name: "web",
      capabilities: webCapabilities,
      renderer,
      transport: createWebTransport(store),
      media: (await conformanceMedia()).policy,
    });
    return {
      adapter,
      target: { to: "teeth" },
      observe: () => [...observed],
      inject: () => {},
      rateLimitRefusals: () => 0,
      teardown: async () => unsubscribe(),
    };
  },
});

describe("the web renderer's teeth over the store", () => {
  it.each(brokenRenderers.map((b) => [b.bug, b] as const))(
    "a renderer that %s fails its line-structure case",
    async (_bug, { wrap, caughtBy }) => {
      await expect(
        runCase(testCase(caughtBy.id), storeHarness(wrap(webRenderer)), { strict: true }),
      ).rejects.toThrow(caughtBy.reason);
    },
  );

  it("the unbroken renderer passes those cases", async () => {
    for (const { caughtBy } of brokenRenderers)
      expect(await runCase(testCase(caughtBy.id), storeHarness(webRenderer), { strict: true })).toBe(
        "passed",
      );
  });
});
