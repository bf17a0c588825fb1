import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ByteRange,
  createManualClock,
  createSelfHostedMedia,
  type HostedItem,
  type HostedItemInfo,
  loadMedia,
  MediaError,
  type MediaStore,
  StoreError,
} from "../../../src/index.js";
import { bytesToHost, type HostFixture, SECRET, startHostFixture } from "./support.js";

const DATA = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 253));

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const stored = (f: HostFixture) => readdirSync(join(f.dir, "store")).sort();

/** A media store in memory: enough to show the host works on any store, with plain promises. */
function memoryStore(): MediaStore & { items: Map<string, HostedItemInfo & { data?: Buffer }> } {
  const items = new Map<string, HostedItemInfo & { data?: Buffer }>();
  return {
    items,
    async put(key, info, bytes) {
      items.set(key, { ...info });
      const chunks: Buffer[] = [];
      for await (const chunk of bytes) chunks.push(Buffer.from(chunk));
      items.set(key, { ...info, data: Buffer.concat(chunks) });
    },
    async get(key): Promise<HostedItem | undefined> {
      const item = items.get(key);
      return item?.data === undefined ? undefined : { ...item, size: item.data.byteLength };
    },
    async *read(key, range?: ByteRange) {
      const data = items.get(key)?.data ?? Buffer.alloc(0);
      yield range === undefined ? data : data.subarray(range.start, range.end + 1);
    },
    async delete(key) {
      items.delete(key);
    },
    async *list() {
      for (const [key, item] of items) yield { key, expiresAt: item.expiresAt };
    },
  };
}

describe("self-hosted media: put and remove", () => {
  it("puts loaded media as it is, and remove() makes the link 404", async () => {
    fixture = await startHostFixture();
    const file = join(fixture.dir, "render.bin");
    writeFileSync(file, DATA);
    const media = await loadMedia(file, { localRoots: [fixture.dir] });
    const put = await fixture.host.put(media);
    expect(put.expiresAt).toBe(Date.UTC(2026, 10, 2));
    const response = await fetch(fixture.local(put.url));
    expect(Buffer.from(await response.arrayBuffer())).toEqual(DATA);
    expect(stored(fixture)).toEqual([put.key, `${put.key}.json`].sort());
    await fixture.host.remove(put.key);
    expect((await fetch(fixture.local(put.url))).status).toBe(404);
    expect(stored(fixture)).toEqual([]);
    await fixture.host.remove(put.key);
    await fixture.host.remove("../render.bin");
    expect(readdirSync(fixture.dir)).toContain("render.bin");
  });

  it("refuses a stream longer than maxBytes or than its declared size, keeping nothing", async () => {
    fixture = await startHostFixture({ maxBytes: 1000 });
    const tooLarge = fixture.host.put(bytesToHost(DATA, "application/octet-stream", "big.bin"));
    await expect(tooLarge).rejects.toMatchObject({ name: "MediaError", reason: "too-large" });
    const lying = fixture.host.put({
      ...bytesToHost(DATA.subarray(0, 500), "text/plain", "a.txt"),
      size: 400,
    });
    await expect(lying).rejects.toMatchObject({ name: "MediaError", reason: "fetch-failed" });
    const short = fixture.host.put({
      ...bytesToHost(DATA.subarray(0, 300), "text/plain", "a.txt"),
      size: 400,
    });
    await expect(short).rejects.toBeInstanceOf(MediaError);
    expect(stored(fixture)).toEqual([]);
  });

  it("refuses an unusable MIME type before reading a byte, and stops when the signal aborts", async () => {
    fixture = await startHostFixture();
    let opened = 0;
    const bad = {
      ...bytesToHost(DATA, "text/html\r\nSet-Cookie: a=b", "x.html"),
      open: () => {
        opened += 1;
        return [];
      },
    };
    await expect(fixture.host.put(bad as never)).rejects.toMatchObject({ reason: "unsupported-type" });
    expect(opened).toBe(0);
    const controller = new AbortController();
    const endless = {
      mimeType: "application/octet-stream",
      fileName: "endless.bin",
      async *open() {
        for (let i = 0; ; i++) {
          if (i === 3) controller.abort(new Error("caller gave up"));
          yield DATA;
        }
      },
    };
    await expect(fixture.host.put(endless, { signal: controller.signal })).rejects.toThrow("caller gave up");
    expect(stored(fixture)).toEqual([]);
    const stalled = new AbortController();
    const silent = {
      mimeType: "application/octet-stream",
      fileName: "stalled.bin",
      async *open() {
        yield DATA;
        stalled.abort(new Error("gave up waiting"));
        await new Promise(() => undefined);
      },
    };
    await expect(fixture.host.put(silent, { signal: stalled.signal })).rejects.toThrow("gave up waiting");
    expect(stored(fixture)).toEqual([]);
  });

  it("wraps a store failure in a StoreError", async () => {
    const store = { ...memoryStore(), put: async () => Promise.reject(new Error("disk full")) };
    const host = createSelfHostedMedia({
      publicUrl: "https://m.example/",
      secret: SECRET,
      store,
      sweepEveryMs: 0,
    });
    const put = host.put(bytesToHost(DATA, "image/png", "a.png"));
    await expect(put).rejects.toBeInstanceOf(StoreError);
    await expect(put).rejects.toThrow("could not keep a.png: disk full");
  });

  it("refuses a short secret and a public URL with a query, by name", () => {
    const base = { publicUrl: "https://m.example/media/", store: memoryStore(), sweepEveryMs: 0 };
    expect(() => createSelfHostedMedia({ ...base, secret: "too-short" })).toThrow(
      /at least 32 bytes \(got 9\)/,
    );
    expect(() => createSelfHostedMedia({ ...base, secret: new Uint8Array(31) })).toThrow(RangeError);
    expect(() =>
      createSelfHostedMedia({ ...base, secret: SECRET, publicUrl: "https://m.example/?a=1" }),
    ).toThrow(/publicUrl/);
    expect(() => createSelfHostedMedia({ ...base, secret: SECRET, publicUrl: "ftp://m.example/" })).toThrow(
      TypeError,
    );
    expect(() => createSelfHostedMedia({ ...base, secret: SECRET, ttlMs: 0 })).toThrow(/ttlMs/);
  });
});

describe("self-hosted media: mounting", () => {
  it("the fetch-style handler answers with the mount prefix kept or removed", async () => {
    const store = memoryStore();
    const host = createSelfHostedMedia({
      publicUrl: "https://bot.example/app/media",
      secret: SECRET,
      store,
      sweepEveryMs: 0,
    });
    const { url, key } = await host.put(bytesToHost(DATA, "audio/ogg", "note.ogg"));
    expect(url.startsWith(`https://bot.example/app/media/${key}?`)).toBe(true);
    const kept = await host.fetch(new Request(url, { headers: { Range: "bytes=0-9" } }));
    expect(kept.status).toBe(206);
    expect(Buffer.from(await kept.arrayBuffer())).toEqual(DATA.subarray(0, 10));
    const stripped = await host.fetch(new Request(url.replace("/app/media/", "/")));
    expect(stripped.status).toBe(200);
    expect((await stripped.arrayBuffer()).byteLength).toBe(DATA.byteLength);
    const elsewhere = await host.fetch(new Request(url.replace("/app/media/", "/app/other/")));
    expect(elsewhere.status).toBe(404);
  });
});

describe("self-hosted media: the sweeper", () => {
  it("sweep() deletes what has expired and what a crashed put left, and keeps the rest", async () => {
    fixture = await startHostFixture();
    const short = await fixture.host.put(bytesToHost(DATA, "image/png", "a.png"), { ttlMs: 60_000 });
    const long = await fixture.host.put(bytesToHost(DATA, "image/png", "b.png"), { ttlMs: 3_600_000 });
    const crashed = "AAAAAAAAAAAAAAAAAAAAAA";
    writeFileSync(
      join(fixture.dir, "store", `${crashed}.json`),
      JSON.stringify({ mimeType: "image/png", fileName: "c.png", expiresAt: short.expiresAt }),
    );
    writeFileSync(join(fixture.dir, "store", `${crashed}.part`), DATA.subarray(0, 10));
    expect(await fixture.host.sweep()).toBe(0);
    await fixture.clock.advance(60_000);
    expect(await fixture.host.sweep()).toBe(2);
    expect(stored(fixture)).toEqual([long.key, `${long.key}.json`].sort());
    expect((await fetch(fixture.local(long.url))).status).toBe(200);
  });

  it("runs by itself every sweepEveryMs on the injected clock, and close() stops it", async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 1));
    const store = memoryStore();
    const host = createSelfHostedMedia({
      publicUrl: "https://m.example/",
      secret: SECRET,
      store,
      clock,
      sweepEveryMs: 600_000,
    });
    await host.put(bytesToHost(DATA, "image/png", "a.png"), { ttlMs: 60_000 });
    await host.put(bytesToHost(DATA, "image/png", "b.png"), { ttlMs: 900_000 });
    expect(store.items.size).toBe(2);
    await clock.advance(599_999);
    expect(store.items.size).toBe(2);
    await clock.advance(1);
    expect(store.items.size).toBe(1);
    host.close();
    await clock.advance(3_600_000);
    expect(store.items.size).toBe(1);
    expect(clock.pending).toBe(0);
  });
});
