import { EventEmitter } from "node:events";
import { fixturePath, fixtureSha256, fixturesDir } from "@outbox/conformance";
import { afterEach, describe, expect, it } from "vitest";
import {
  createWebAdapter,
  type StoredMedia,
  startWebInbox,
  type WebEvent,
  type WebInbox,
  type WebMessageStore,
} from "../src/index.js";
import { readEvents } from "./support.js";

/** A store as an integrator would write one over a table: rows with opaque event ids, notifications by an emitter. */
function tableStore(): WebMessageStore & { rows: WebEvent[]; calls: string[] } {
  const rows: WebEvent[] = [];
  const blobs = new Map<string, StoredMedia>();
  const grants = new Set<string>();
  const bus = new EventEmitter();
  const calls: string[] = [];
  return {
    rows,
    calls,
    async append(message) {
      calls.push("append");
      const existing = rows.find(
        (row) => row.message.conversation === message.conversation && row.message.id === message.id,
      );
      if (existing) return existing;
      const event = { id: `evt-${String(rows.length + 1).padStart(6, "0")}`, message };
      rows.push(event);
      bus.emit(message.conversation, event);
      return event;
    },
    async list(conversation, after) {
      calls.push("list");
      return rows.filter(
        (row) => row.message.conversation === conversation && (after === undefined || row.id > after),
      );
    },
    async get(conversation, id) {
      return rows.find((row) => row.message.conversation === conversation && row.message.id === id)?.message;
    },
    async putMedia(conversation, sha256, media) {
      calls.push("putMedia");
      blobs.set(sha256, media);
      grants.add(`${conversation}/${sha256}`);
    },
    async getMedia(conversation, sha256) {
      return grants.has(`${conversation}/${sha256}`) ? blobs.get(sha256) : undefined;
    },
    subscribe(conversation, listener) {
      bus.on(conversation, listener);
      return () => bus.off(conversation, listener);
    },
  };
}

let inbox: WebInbox | undefined;
afterEach(async () => {
  await inbox?.close();
});

describe("a custom WebMessageStore", () => {
  it("backs the adapter and the inbox: page, media and stream resume on its own event ids", async () => {
    const store = tableStore();
    inbox = await startWebInbox({ auth: { secret: "x".repeat(40) }, store });
    const web = createWebAdapter({ store, media: { localRoots: [fixturesDir] } });
    const bearer = { Authorization: `Bearer ${inbox.tokenFor("room")}` };
    await web.send({ text: "first" }, { to: "room" });
    await web.send({ text: "with a picture", mediaUrl: fixturePath("png") }, { to: "room" });
    expect(store.rows.map((row) => row.id)).toEqual(["evt-000001", "evt-000002"]);
    expect(store.calls).toContain("putMedia");

    const page = await (await fetch(`${inbox.url}/c/room/`, { headers: bearer })).text();
    expect(page).toContain('data-last-event="evt-000002"');
    expect(page).toContain("<p>first</p>");
    const media = await fetch(`${inbox.url}/c/room/media/${fixtureSha256("png")}`, { headers: bearer });
    expect(media.status).toBe(200);

    const stream = await fetch(`${inbox.url}/c/room/events`, {
      headers: { ...bearer, "Last-Event-ID": "evt-000001" },
    });
    const reading = readEvents(stream, 2);
    await web.send({ text: "third" }, { to: "room" });
    expect((await reading).map((event) => event.id)).toEqual(["evt-000002", "evt-000003"]);
  });
});
