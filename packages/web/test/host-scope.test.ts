/**
 * The inbox inside a host app, in Chromium: what the reader's browser sends to the host's
 * other routes. The conversation cookie reaches only that conversation's routes; a
 * root-relative embed is framed only under the canvas prefix, so a message cannot make the
 * browser call a route of the host app with the reader's cookies.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForMessages } from "../src/conformance/wait.js";
import {
  conversationToken,
  createMemoryWebStore,
  createWebAdapter,
  createWebInboxHandler,
} from "../src/index.js";
import { BROWSER_TIMEOUT_MS, browserLabel, noBrowser, useBrowser } from "./support/browser.js";

describe.skipIf(noBrowser)(`the inbox in a host app ${browserLabel}`, { timeout: 120_000 }, () => {
  const handle = useBrowser();
  const secret = randomBytes(32).toString("hex");
  const store = createMemoryWebStore();
  const adapter = createWebAdapter({ store });
  const inbox = createWebInboxHandler({ auth: { secret }, store });
  /** What the host's own routes received: path and Cookie header. */
  const hostRequests: Array<{ path: string; cookie: string }> = [];
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith("/inbox/")) {
        req.url = req.url.slice("/inbox".length);
        inbox(req, res);
        return;
      }
      hostRequests.push({ path: req.url ?? "", cookie: req.headers.cookie ?? "" });
      res.writeHead(200, { "content-type": "text/html" }).end("<p>host route</p>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const ids = async (conversation: string) => (await store.list(conversation)).map((e) => e.message.id);

  it("the conversation cookie is sent to that conversation's routes only, never to the host's", async () => {
    await adapter.send({ text: "scoped" }, { to: "room" });
    const { context, page } = await handle.newPage();
    await page.goto(`${base}/inbox/c/room/?token=${conversationToken(secret, "room")}`);
    await page.waitForSelector("#ob-status[data-state=live]");
    await waitForMessages(page, await ids("room"), BROWSER_TIMEOUT_MS);
    const [cookie] = await context.cookies();
    expect(cookie?.path).toBe("/inbox/c/room");
    await page.goto(`${base}/account`);
    await page.goto(`${base}/inbox/c/other/`);
    expect(hostRequests.find((request) => request.path === "/account")?.cookie).toBe("");
    await context.close();
  });

  it("a root-relative embed outside the canvas prefix is never requested; a canvas is framed", async () => {
    await adapter.send(
      { text: 'Look.\n[embed url="/account/delete?confirm=1" /]\n[embed ref="cv_1" title="Status" /]' },
      { to: "embeds" },
    );
    const { context, page } = await handle.newPage();
    const canvas = page.waitForRequest((request) => request.url().includes("/__openclaw__/canvas/"));
    await page.goto(`${base}/inbox/c/embeds/?token=${conversationToken(secret, "embeds")}`);
    await waitForMessages(page, await ids("embeds"), BROWSER_TIMEOUT_MS);
    await canvas;
    expect(
      await page.locator("iframe").evaluateAll((frames) => frames.map((f) => f.getAttribute("src"))),
    ).toEqual(["/__openclaw__/canvas/documents/cv_1/index.html"]);
    expect(await page.locator(".ob-embed-link").allTextContents()).toEqual([
      "Canvas: /account/delete?confirm=1",
    ]);
    expect(hostRequests.map((request) => request.path)).not.toContain("/account/delete?confirm=1");
    await context.close();
  });
});
