/**
 * XSS in a real browser: every payload of xss-payloads.ts is delivered through the web adapter
 * twice, once before the page opens (server-rendered history) and once while it is open (live,
 * over the event stream). Then, in Chromium: no payload ran (no `__pwned` canary, no dialog, no
 * `PWNED` console line), the page's CSP never had to block anything (the sanitizer stopped it
 * first), and with the CSP switched off the sanitizer alone still stops them all. The markup a
 * model wrote shows as text, and the DOM holds only the elements and URLs the contract allows.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeInbox } from "../src/conformance/decode.js";
import { snapshotInbox } from "../src/conformance/snapshot.js";
import { waitForImages, waitForMessages } from "../src/conformance/wait.js";
import { BROWSER_TIMEOUT_MS, browserLabel, noBrowser, useBrowser } from "./support/browser.js";
import { startTestInbox, type TestInbox } from "./support/inbox.js";
import { xssPayloads } from "./support/xss-payloads.js";

/** Records CSP violations before any page script runs. */
const RECORD_VIOLATIONS = `window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(
  e.effectiveDirective + " blocked " + (e.blockedURI || "inline") + ": " + (e.sample || "")));`;

/** What the DOM audit found (runs in the page). */
const AUDIT = `(() => {
  const allowed = new Set(["article", "div", "p", "br", "strong", "em", "del", "code", "pre", "blockquote", "ul",
    "ol", "li", "hr", "a", "span", "figure", "figcaption", "img", "video", "audio", "source", "iframe"]);
  const problems = [];
  for (const el of document.querySelectorAll("#ob-messages *")) {
    const where = el.closest("article") ? el.closest("article").dataset.id : "?";
    if (!allowed.has(el.localName)) problems.push(where + ": element <" + el.localName + ">");
    for (const attr of el.attributes)
      if (/^on/i.test(attr.name) || ["srcdoc", "style", "formaction", "xlink:href"].includes(attr.name))
        problems.push(where + ": attribute " + attr.name + " on <" + el.localName + ">");
    if (el.localName === "a" && el.hasAttribute("href") && !/^(https?:|mailto:)$/.test(new URL(el.href).protocol))
      problems.push(where + ": link to " + el.getAttribute("href"));
    for (const name of ["src", "data", "action"])
      if (el.hasAttribute(name) && !/^(https?:)$/.test(new URL(el.getAttribute(name), location.href).protocol))
        problems.push(where + ": " + name + "=" + el.getAttribute(name));
    if (el.localName === "iframe" && (el.getAttribute("sandbox") !== "allow-scripts" || !el.closest("figure.ob-embed")))
      problems.push(where + ": iframe sandbox=" + el.getAttribute("sandbox"));
  }
  return problems;
})()`;

describe.skipIf(noBrowser)(`XSS payloads ${browserLabel}`, { timeout: 120_000 }, () => {
  const handle = useBrowser();
  let inbox: TestInbox;
  beforeAll(async () => {
    inbox = await startTestInbox();
  }, BROWSER_TIMEOUT_MS);
  afterAll(() => inbox?.close());

  /** Deliver every payload to `conversation`; the message ids each one added. */
  async function deliverAll(conversation: string): Promise<Map<string, string[]>> {
    const added = new Map<string, string[]>();
    for (const { name, payload } of xssPayloads) {
      const before = (await inbox.ids(conversation)).length;
      await inbox.adapter.send(payload, { to: conversation });
      added.set(name, (await inbox.ids(conversation)).slice(before));
    }
    return added;
  }

  async function openWatched(conversation: string, options: { bypassCSP: boolean }) {
    const context = await handle.browser().newContext({ bypassCSP: options.bypassCSP });
    context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
    await context.addInitScript(RECORD_VIOLATIONS);
    const page = await context.newPage();
    const dialogs: string[] = [];
    const consoleLines: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on("console", (line) => {
      if (line.text().includes("PWNED")) consoleLines.push(line.text());
    });
    await page.goto(inbox.inbox.urlFor(conversation));
    await page.waitForSelector("#ob-status[data-state=live]");
    return { context, page, dialogs, consoleLines };
  }

  async function traces(page: Page) {
    await waitForImages(page, BROWSER_TIMEOUT_MS);
    return {
      pwned: await page.evaluate("window.__pwned ?? null"),
      violations: (await page.evaluate("window.__violations")) as string[],
      audit: (await page.evaluate(AUDIT)) as string[],
    };
  }

  for (const bypassCSP of [false, true]) {
    it(`${xssPayloads.length} payloads, history and live, ${bypassCSP ? "CSP off (the sanitizer alone)" : "CSP on"}: nothing runs, markup shows as text`, async () => {
      const conversation = `xss-${bypassCSP ? "no-csp" : "csp"}`;
      const history = await deliverAll(conversation);
      const watched = await openWatched(conversation, { bypassCSP });
      try {
        await waitForMessages(watched.page, await inbox.ids(conversation), BROWSER_TIMEOUT_MS);
        await deliverAll(conversation);
        await waitForMessages(watched.page, await inbox.ids(conversation), BROWSER_TIMEOUT_MS);
        const found = await traces(watched.page);
        expect(found.pwned, "a payload ran and set window.__pwned").toBeNull();
        expect(watched.dialogs, "dialogs opened by payloads").toEqual([]);
        expect(watched.consoleLines, "console lines written by payloads").toEqual([]);
        if (!bypassCSP) expect(found.violations, "CSP had to block something").toEqual([]);
        expect(found.audit, "elements, attributes and URLs outside the contract").toEqual([]);
        // What the model wrote is shown as text (history and live articles render the same).
        const byId = new Map(
          decodeInbox(await snapshotInbox(watched.page, { probeMedia: false })).map((m) => [m.id, m]),
        );
        for (const { name, shows } of xssPayloads) {
          const ids = history.get(name) ?? [];
          expect(ids.length, `${name}: messages stored`).toBeGreaterThan(0);
          const seen = ids
            .map((id) => byId.get(id))
            .map((m) => [m?.text, m?.caption, ...(m?.embeds ?? []).map((e) => e.title)].join(" "))
            .join(" ")
            .replace(/\s+/g, " ");
          for (const literal of shows ?? [])
            expect(seen, `${name}: shows ${literal} as text`).toContain(literal);
        }
      } finally {
        await watched.context.close();
      }
    });
  }
});
