import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadMedia, MediaError, type MediaPolicy } from "../../src/index.js";
import { drain, type Harness, redirect, serve, startHarness } from "./helpers/harness.js";
import { gif, oggOpus, png } from "./helpers/samples.js";

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    "rebind.example.com": ["93.184.216.34", "127.0.0.1"],
    "two.example.com": [["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]],
    "v6.example.com": ["2606:2800:220:1:248:1893:25c8:1946"],
  });
});
afterAll(() => harness.close());

describe("loadMedia: https", () => {
  it("loads an image through the pinned connection and keeps the URL as source", async () => {
    const media = await loadMedia("https://media.outbox.test/image.png", harness.policy());
    expect(media).toMatchObject({ kind: "image", mimeType: "image/png", fileName: "image.png", width: 640 });
    expect(media.size).toBe(png().length);
    expect(media.source).toEqual({ type: "url", url: "https://media.outbox.test/image.png" });
    expect(harness.connections.at(-1)).toEqual({ hostname: "127.0.0.1", servername: "media.outbox.test" });
  });

  it("fetches, and keeps as source, only the canonical form it checked", async () => {
    harness.route("/@127.0.0.1/image.png", serve(png(), "image/png"));
    const media = await loadMedia("https://media.outbox.test\\@127.0.0.1/x/../image.png", harness.policy());
    expect(media.source).toEqual({ type: "url", url: "https://media.outbox.test/@127.0.0.1/image.png" });
    expect(harness.connections.at(-1)).toEqual({ hostname: "127.0.0.1", servername: "media.outbox.test" });
  });

  it("re-fetches on every open() under the same checks", async () => {
    harness.route("/reopen.gif", serve(gif(), "image/gif"));
    const media = await loadMedia("https://media.outbox.test/reopen.gif", harness.policy());
    expect(media.kind).toBe("animation");
    const first = await drain(media.open());
    const second = await drain(media.open());
    expect(first.equals(gif())).toBe(true);
    expect(second.equals(first)).toBe(true);
    expect(harness.server.count("media.outbox.test", "/reopen.gif")).toBe(3);
  });

  it("counts the size of a body sent without content-length, and reads the OGG duration", async () => {
    const voice = oggOpus(4_500, 300_000);
    harness.route("/voice", serve(voice, "audio/ogg", true));
    const media = await loadMedia("https://media.outbox.test/voice", harness.policy());
    expect(media).toMatchObject({
      kind: "audio",
      mimeType: "audio/ogg",
      size: voice.length,
      durationMs: 4_500,
    });
    expect(media.fileName).toBe("voice.ogg");
    expect((await drain(media.open())).length).toBe(voice.length);
  });

  it("with content-length, gets a large OGG's duration from one Range request for its tail", async () => {
    const voice = oggOpus(9_000, 400_000);
    const ranges: string[] = [];
    harness.route("/ranged.ogg", (request, response) => {
      const range = request.headers.range;
      if (range === undefined) {
        response.writeHead(200, { "content-length": voice.length }).end(voice);
        return;
      }
      ranges.push(range);
      const tail = voice.subarray(voice.length - Number(range.replace("bytes=-", "")));
      response.writeHead(206, {
        "content-length": tail.length,
        "content-range": `bytes ${voice.length - tail.length}-${voice.length - 1}/${voice.length}`,
      });
      response.end(tail);
    });
    harness.route("/unranged.ogg", serve(voice, "audio/ogg"));
    const ranged = await loadMedia("https://media.outbox.test/ranged.ogg", harness.policy());
    expect(ranged).toMatchObject({ durationMs: 9_000, size: voice.length });
    expect(ranges).toEqual(["bytes=-65307"]);
    const unranged = await loadMedia("https://media.outbox.test/unranged.ogg", harness.policy());
    expect(unranged.durationMs).toBeUndefined();
    expect(harness.server.count("media.outbox.test", "/unranged.ogg")).toBe(2);
  });

  it("with content-length, reads only the head at load time", async () => {
    const big = Buffer.concat([png(), Buffer.alloc(2_000_000)]);
    harness.route("/big.png", serve(big, "image/png"));
    const media = await loadMedia("https://media.outbox.test/big.png", harness.policy());
    expect(media.size).toBe(big.length);
    expect(media.durationMs).toBeUndefined();
  });

  it("falls back to the extension, then the content-type header", async () => {
    harness.route("/notes.txt", serve(Buffer.from("hello"), "application/octet-stream"));
    harness.route("/report", serve(Buffer.from("a,b"), "Text/CSV; charset=utf-8"));
    expect((await loadMedia("https://media.outbox.test/notes.txt", harness.policy())).mimeType).toBe(
      "text/plain",
    );
    const report = await loadMedia("https://media.outbox.test/report", harness.policy());
    expect(report).toMatchObject({ mimeType: "text/csv", kind: "document", fileName: "report.csv" });
  });

  it("follows redirects within the limit, re-checking each hop", async () => {
    harness.route("/hop1", redirect("/hop2"));
    harness.route("/hop2", redirect("https://media.outbox.test/image.png", 308));
    const media = await loadMedia("https://media.outbox.test/hop1", harness.policy());
    expect(media.mimeType).toBe("image/png");
    expect(media.source).toEqual({ type: "url", url: "https://media.outbox.test/hop1" });
  });

  it("pins the connection to the address it checked (DNS rebinding)", async () => {
    const before = harness.lookups.length;
    const media = await loadMedia("https://rebind.example.com/image.png", harness.policy({ allowHosts: [] }));
    expect(media.mimeType).toBe("image/png");
    expect(harness.connections.at(-1)).toEqual({
      hostname: "93.184.216.34",
      servername: "rebind.example.com",
    });
    expect(harness.lookups.slice(before)).toEqual(["rebind.example.com"]);
    // The second resolution (127.0.0.1) is refused on re-open: nothing reaches the server.
    const served = harness.server.count("rebind.example.com", "/image.png");
    await expect(drain(media.open())).rejects.toMatchObject({ reason: "blocked" });
    expect(harness.server.count("rebind.example.com", "/image.png")).toBe(served);
  });

  it("prefers an IPv4 address and connects to IPv6 literals in brackets", async () => {
    await loadMedia("https://two.example.com/image.png", harness.policy({ allowHosts: [] }));
    expect(harness.connections.at(-1)?.hostname).toBe("93.184.216.34");
    await loadMedia("https://v6.example.com/image.png", harness.policy({ allowHosts: [] }));
    expect(harness.connections.at(-1)).toEqual({
      hostname: "2606:2800:220:1:248:1893:25c8:1946",
      servername: "v6.example.com",
    });
  });

  it("fails open() when the content changed size since loading", async () => {
    let body = png();
    harness.route("/changing.png", (_request, response) => {
      response.writeHead(200, { "content-type": "image/png" });
      response.end(body);
    });
    const media = await loadMedia("https://media.outbox.test/changing.png", harness.policy());
    body = Buffer.concat([png(), Buffer.alloc(10)]);
    const error = await drain(media.open()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MediaError);
    expect((error as MediaError).message).toMatch(/changed since it was loaded/);
  });

  it("maps 404 to not-found and 500 to fetch-failed, without leaking the query string", async () => {
    harness.route("/broken", (_request, response) => {
      response.writeHead(500).end();
    });
    const missing = (await loadMedia("https://media.outbox.test/nope?sig=SECRET", harness.policy()).catch(
      (caught: unknown) => caught,
    )) as MediaError;
    expect(missing).toMatchObject({ reason: "not-found", code: "media_not_found" });
    expect(missing.message).not.toContain("SECRET");
    await expect(loadMedia("https://media.outbox.test/broken", harness.policy())).rejects.toMatchObject({
      reason: "fetch-failed",
    });
  });

  it("honours an AbortSignal", async () => {
    const controller = new AbortController();
    harness.route("/hang", () => controller.abort());
    await expect(
      loadMedia("https://media.outbox.test/hang", harness.policy({ signal: controller.signal })),
    ).rejects.toMatchObject({ reason: "fetch-failed", message: expect.stringMatching(/cancelled/) });
  });

  it("names the file from content-disposition (filename* first)", async () => {
    harness.route("/download", (_request, response) => {
      response.writeHead(200, {
        "content-disposition": `attachment; filename="plain.png"; filename*=UTF-8''%C3%A9t%C3%A9%2F..%2Fx.png`,
      });
      response.end(png());
    });
    const media = await loadMedia("https://media.outbox.test/download", harness.policy());
    expect(media.fileName).toBe("x.png");
  });

  it("fails an open() stream that stalls for timeoutMs", async () => {
    // The load runs under a generous timeout on real time; the stall is then measured on
    // fake timers, so a busy CPU can neither fail the load nor fake a stall.
    let calls = 0;
    harness.route("/stalls-later", (_request, response) => {
      calls += 1;
      response.writeHead(200, { "content-length": 1000 });
      if (calls === 1) response.end(Buffer.alloc(1000));
      else response.write(Buffer.alloc(10));
    });
    const media = await loadMedia(
      "https://media.outbox.test/stalls-later",
      harness.policy({ timeoutMs: 60_000 }),
    );
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const stream = media.open()[Symbol.asyncIterator]();
      const first = await stream.next();
      expect(first.done).toBe(false);
      const rest = stream.next();
      vi.advanceTimersByTime(59_000);
      let settled = false;
      void rest.then(
        () => (settled = true),
        () => (settled = true),
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      vi.advanceTimersByTime(1_000);
      await expect(rest).rejects.toMatchObject({
        reason: "fetch-failed",
        message: expect.stringMatching(/stalled for 60000 ms/),
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("cancels an open() stream when the policy's signal aborts", async () => {
    const controller = new AbortController();
    let calls = 0;
    harness.route("/cancel-later", (_request, response) => {
      calls += 1;
      response.writeHead(200, { "content-length": 1000 });
      response.write(Buffer.alloc(10));
      if (calls === 1) response.end(Buffer.alloc(990));
    });
    const media = await loadMedia(
      "https://media.outbox.test/cancel-later",
      harness.policy({ signal: controller.signal }),
    );
    const reading = drain(
      (async function* () {
        for await (const chunk of media.open()) {
          controller.abort();
          yield chunk;
        }
      })(),
    );
    await expect(reading).rejects.toMatchObject({
      reason: "fetch-failed",
      message: expect.stringMatching(/cancelled/),
    });
  });

  it("times out a resolver that never answers", async () => {
    const silent = (() => {}) as unknown as MediaPolicy["lookup"];
    await expect(
      loadMedia("https://slow-dns.example.com/x.png", harness.policy({ lookup: silent, timeoutMs: 100 })),
    ).rejects.toMatchObject({
      reason: "fetch-failed",
      message: expect.stringMatching(/timed out after 100 ms/),
    });
  });

  it("reports an unresolvable host as fetch-failed", async () => {
    await expect(loadMedia("https://nowhere.example.com/x.png", harness.policy())).rejects.toMatchObject({
      reason: "fetch-failed",
      message: expect.stringMatching(/could not be resolved/),
    });
  });
});
