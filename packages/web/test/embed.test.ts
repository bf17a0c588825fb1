/**
 * Embeds in Chromium: an allowed canvas renders as a frame sandboxed with `allow-scripts` only,
 * as tall as its `preferredHeight`; a URL the policy refuses shows as a link, never a frame.
 * The canvas the frame loads is served by the test at the inbox's own origin (root-relative,
 * the strongest case: without the sandbox it would be same-origin) and tries to reach the page.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { CanvasEmbed } from "@outbox/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebAdapter } from "../src/adapter.js";
import { decodeInbox } from "../src/conformance/decode.js";
import { snapshotInbox } from "../src/conformance/snapshot.js";
import { waitForMessages } from "../src/conformance/wait.js";
import { createWebInboxApp } from "../src/server/app.js";
import { createWebInboxHandler } from "../src/server/start.js";
import { createMemoryWebStore } from "../src/store/memory-store.js";
import { BROWSER_TIMEOUT_MS, browserLabel, noBrowser, useBrowser } from "./support/browser.js";

/** The canvas: records, in its own body, what it could reach of the page around it. */
const CANVAS = `<!doctype html><meta charset="utf-8"><title>probe</title><body>canvas<script>
const tries = {
  parentDocument: () => parent.document.body.innerHTML.length,
  topDocument: () => top.document.title,
  parentLocation: () => parent.location.href,
  parentGlobal: () => { parent.__pwned = "canvas"; return parent.__pwned; },
  cookie: () => document.cookie,
  localStorage: () => localStorage.length,
};
const result = { origin: self.origin };
for (const [name, attempt] of Object.entries(tries)) {
  try { result[name] = "reached: " + String(attempt()); } catch (error) { result[name] = "blocked: " + error.name; }
}
document.body.dataset.result = JSON.stringify(result);
</script>`;

const CANVAS_PATH = "/__openclaw__/canvas/documents/probe/index.html";

const canvas = (url: string, preferredHeight?: number): CanvasEmbed => ({
  type: "canvas",
  preview: {
    kind: "canvas",
    surface: "assistant_message",
    render: "url",
    url,
    title: `canvas ${url}`,
    ...(preferredHeight === undefined ? {} : { preferredHeight }),
  },
});

describe.skipIf(noBrowser)(`embeds ${browserLabel}`, { timeout: 120_000 }, () => {
  const handle = useBrowser();
  const store = createMemoryWebStore();
  const secret = randomBytes(32).toString("hex");
  const adapter = createWebAdapter({ store });
  let server: Server;
  let origin = "";
  beforeAll(async () => {
    // The inbox mounted in the integrator's own server, which also serves the canvas documents.
    const inbox = createWebInboxHandler({ auth: { secret }, store });
    server = createServer((req, res) => {
      if (req.url === CANVAS_PATH) res.writeHead(200, { "content-type": "text/html" }).end(CANVAS);
      else inbox(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function open(conversation: string) {
    const { context, page } = await handle.newPage();
    const token = createWebInboxApp({ auth: { secret }, store }).tokenFor(conversation);
    await page.goto(`${origin}/c/${conversation}/?token=${encodeURIComponent(token)}`);
    await waitForMessages(
      page,
      (await store.list(conversation)).map((e) => e.message.id),
      BROWSER_TIMEOUT_MS,
    );
    return { context, page };
  }

  it("a root-relative canvas runs in a frame sandboxed without allow-same-origin: it cannot reach the page", async () => {
    await adapter.send(
      { text: 'Latency:\n\n[embed ref="probe" title="Probe" height="480" /]' },
      { to: "frame" },
    );
    const { context, page } = await open("frame");
    try {
      const [, embedMessage] = decodeInbox(await snapshotInbox(page));
      expect(embedMessage?.embeds).toEqual([
        { shown: "frame", url: CANVAS_PATH, sandbox: "allow-scripts", height: 480, title: "Probe" },
      ]);
      const frame = page.frameLocator("figure.ob-embed iframe");
      await frame.locator("body[data-result]").waitFor();
      const result = JSON.parse((await frame.locator("body").getAttribute("data-result")) ?? "{}");
      expect(result.origin, "the canvas has an opaque origin").toBe("null");
      for (const name of [
        "parentDocument",
        "topDocument",
        "parentLocation",
        "parentGlobal",
        "cookie",
        "localStorage",
      ])
        expect(result[name], `${name} from inside the canvas`).toMatch(/^blocked: SecurityError$/);
      expect(await page.evaluate("window.__pwned ?? null")).toBeNull();
      const height = await page.evaluate(`document.querySelector("figure.ob-embed iframe").clientHeight`);
      expect(height, "rendered height (inside the border) from preferredHeight").toBe(480);
    } finally {
      await context.close();
    }
  });

  it("only https and root-relative URLs are framed; every other URL is a link that cannot run script", async () => {
    const embeds = [
      canvas("https://canvas.example.test/view", 1000),
      canvas("http://canvas.example.test/view"),
      canvas("javascript:top.__pwned='embed'"),
      canvas("data:text/html,<script>top.__pwned='embed'</script>"),
      canvas("//canvas.example.test/protocol-relative"),
      canvas("/\\canvas.example.test/backslash"),
      canvas("vbscript:msgbox(1)"),
    ];
    await adapter.send({ text: "Canvases:", embeds }, { to: "policy" });
    const { context, page } = await open("policy");
    try {
      const shown = decodeInbox(await snapshotInbox(page)).flatMap((m) => m.embeds ?? []);
      expect(shown.map((e) => [e.shown, e.shown === "frame" ? e.url : e.title])).toEqual([
        ["frame", "https://canvas.example.test/view"],
        ["link", "canvas http://canvas.example.test/view: http://canvas.example.test/view"],
        ["link", "canvas javascript:top.__pwned='embed': javascript:top.__pwned='embed'"],
        [
          "link",
          "canvas data:text/html,<script>top.__pwned='embed'</script>: data:text/html,<script>top.__pwned='embed'</script>",
        ],
        ["link", "canvas //canvas.example.test/protocol-relative: //canvas.example.test/protocol-relative"],
        ["link", "canvas /\\canvas.example.test/backslash: /\\canvas.example.test/backslash"],
        ["link", "canvas vbscript:msgbox(1): vbscript:msgbox(1)"],
      ]);
      expect(shown[0]).toMatchObject({ sandbox: "allow-scripts", height: 1000 });
      const hrefs = await page.$$eval("a.ob-embed-link", (links) => links.map((a) => a.getAttribute("href")));
      for (const href of hrefs)
        if (href !== null) expect(href).toMatch(/^https?:\/\/canvas\.example\.test\//);
      for (const link of await page.locator("a.ob-embed-link").all())
        await link.click({ modifiers: ["Shift"] }).catch(() => undefined);
      expect(await page.evaluate("window.__pwned ?? null"), "clicking the links ran nothing").toBeNull();
    } finally {
      await context.close();
    }
  });
});
