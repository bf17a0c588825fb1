import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import {
  conversationToken,
  createMemoryWebStore,
  createWebAdapter,
  createWebInboxApp,
  createWebInboxHandler,
} from "../src/index.js";
import { readEvents } from "./support.js";

const secret = "m".repeat(48);
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("mounting in an existing Node server", () => {
  it("serves under a path prefix with createWebInboxHandler (the docs' recipe)", async () => {
    const store = createMemoryWebStore();
    const inbox = createWebInboxHandler({ auth: { secret }, store });
    const base = await listen((req, res) => {
      if (req.url?.startsWith("/inbox/")) {
        req.url = req.url.slice("/inbox".length);
        inbox(req, res);
        return;
      }
      res.writeHead(404).end("app route");
    });
    await createWebAdapter({ store }).send({ text: "mounted" }, { to: "room" });
    const link = `${base}/inbox/c/room/?token=${conversationToken(secret, "room")}`;
    const first = await fetch(link, { redirect: "manual" });
    expect(first.status).toBe(303);
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const page = await fetch(new URL(first.headers.get("location") ?? "", link), { headers: { cookie } });
    expect(page.url).toBe(`${base}/inbox/c/room/`);
    expect(await page.text()).toContain("<p>mounted</p>");
    const events = await fetch(`${base}/inbox/c/room/events`, { headers: { cookie } });
    expect((await readEvents(events, 1))[0]?.data).toContain("mounted");
    expect(await (await fetch(`${base}/elsewhere`)).text()).toBe("app route");
  });

  it("mounts as a Hono sub-app", async () => {
    const store = createMemoryWebStore();
    const parent = new Hono();
    parent.route("/inbox", createWebInboxApp({ auth: { secret }, store }).app);
    await createWebAdapter({ store }).send({ text: "in hono" }, { to: "room" });
    const response = await parent.request("/inbox/c/room/", {
      headers: { Authorization: `Bearer ${conversationToken(secret, "room")}` },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<p>in hono</p>");
  });
});
