import { fixtureBytes, fixturePath, fixtureSha256, fixturesDir } from "@outbox/conformance";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRange } from "../src/server/media-route.js";
import { authed, createEmulatedChannel, type WebEmulatedChannel } from "./support.js";

let channel: WebEmulatedChannel;
beforeEach(async () => {
  channel = await createEmulatedChannel({ media: { localRoots: [fixturesDir] } });
});
afterEach(async () => {
  await channel.close();
});

describe("media by content hash", () => {
  it("serves an image inline with its type, hash ETag, ranges accepted and a sandbox CSP", async () => {
    await channel.adapter.send({ mediaUrl: fixturePath("png") }, channel.target);
    const response = await authed(channel, `media/${fixtureSha256("png")}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("etag")).toBe(`"${fixtureSha256("png")}"`);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("content-disposition")).toBeNull();
    expect(response.headers.get("content-security-policy")).toContain("sandbox");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await response.arrayBuffer()).equals(fixtureBytes("png"))).toBe(true);
    const again = await authed(channel, `media/${fixtureSha256("png")}`, {
      headers: { "If-None-Match": `"${fixtureSha256("png")}"` },
    });
    expect(again.status).toBe(304);
    const head = await authed(channel, `media/${fixtureSha256("png")}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(fixtureBytes("png").length));
  });

  it("sends documents as attachments under their file name", async () => {
    await channel.adapter.send({ mediaUrl: fixturePath("pdf") }, channel.target);
    const response = await authed(channel, `media/${fixtureSha256("pdf")}`);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="doc.pdf"; filename*=UTF-8''doc.pdf`,
    );
    const page = await (await authed(channel, "")).text();
    expect(page).toContain(
      `<a class="ob-download" download="doc.pdf" href="media/${fixtureSha256("pdf")}">doc.pdf</a>`,
    );
  });

  it("answers byte ranges of audio and video with 206, and 416 past the end", async () => {
    await channel.adapter.send({ mediaUrls: [fixturePath("mp3"), fixturePath("mp4")] }, channel.target);
    for (const name of ["mp3", "mp4"] as const) {
      const bytes = fixtureBytes(name);
      const part = await authed(channel, `media/${fixtureSha256(name)}`, {
        headers: { Range: "bytes=10-19" },
      });
      expect(part.status, name).toBe(206);
      expect(part.headers.get("content-range")).toBe(`bytes 10-19/${bytes.length}`);
      expect(part.headers.get("content-length")).toBe("10");
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
      const tail = await authed(channel, `media/${fixtureSha256(name)}`, { headers: { Range: "bytes=-5" } });
      expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 5))).toBe(true);
      const past = await authed(channel, `media/${fixtureSha256(name)}`, {
        headers: { Range: `bytes=${bytes.length}-` },
      });
      expect(past.status).toBe(416);
      expect(past.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    }
  });

  it("answers 404 for a hash the conversation does not hold or a malformed one", async () => {
    expect((await authed(channel, `media/${"0".repeat(64)}`)).status).toBe(404);
    expect((await authed(channel, "media/..%2F..%2Fetc%2Fpasswd")).status).toBe(404);
  });

  it("parses single byte ranges and refuses the rest", () => {
    expect(parseRange("bytes=0-0", 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange("bytes=5-", 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange("bytes=5-100", 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange("bytes=-3", 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange("bytes=-30", 10)).toEqual({ start: 0, end: 9 });
    for (const bad of ["bytes=10-", "bytes=5-4", "bytes=-", "bytes=-0", "items=0-1", "bytes=0-1,3-4"])
      expect(parseRange(bad, 10), bad).toBeUndefined();
  });
});
