import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { MediaError, OutboxError, redactError, redactSecrets } from "../../../src/index.js";
import { bytesToHost, type HostFixture, rawRequest, startHostFixture } from "./support.js";

const PDF = Buffer.from("%PDF-1.4\n% the quarterly figures\n%%EOF\n");
const KB = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

let fixture: HostFixture;
afterEach(async () => fixture?.close());

/** Put `data` and return its local link and key. */
async function hosted(data: Uint8Array = KB, mimeType = "video/mp4", fileName = "clip.mp4") {
  const put = await fixture.host.put(bytesToHost(data, mimeType, fileName), { ttlMs: 60_000 });
  return { ...put, link: new URL(fixture.local(put.url)) };
}

/** The link with query parameter `name` set to `value`. */
function withParam(link: URL, name: string, value: string): string {
  const edited = new URL(link);
  edited.searchParams.set(name, value);
  return edited.href;
}

describe("self-hosted media: the signed link", () => {
  it("serves the bytes to a valid link, with nosniff and no disposition for video", async () => {
    fixture = await startHostFixture();
    const { link } = await hosted();
    const response = await fetch(link);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(KB);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-type")).toBe("video/mp4");
    expect(response.headers.get("content-disposition")).toBeNull();
  });

  it("refuses a tampered signature, in every spelling of the last character", async () => {
    fixture = await startHostFixture();
    const { link } = await hosted();
    const sig = link.searchParams.get("sig") as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const spellings = [...alphabet].filter((c) => c !== sig.at(-1)).map((c) => `${sig.slice(0, -1)}${c}`);
    const flippedFirst = `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`;
    for (const forged of [...spellings, flippedFirst, sig.slice(0, -1), `${sig}A`, "", sig.toUpperCase()]) {
      const response = await fetch(withParam(link, "sig", forged));
      expect(response.status, forged).toBe(403);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const doubled = `${link.href}&sig=${sig}`;
    expect((await fetch(doubled)).status).toBe(403);
    const bare = new URL(link);
    bare.search = "";
    expect((await fetch(bare)).status).toBe(403);
  });

  it("refuses an expired link (410), and one whose expiry was extended by editing the query (403)", async () => {
    fixture = await startHostFixture();
    const { link, expiresAt } = await hosted();
    expect(expiresAt).toBe(Date.UTC(2026, 10, 1) + 60_000);
    await fixture.clock.advance(59_999);
    expect((await fetch(link)).status).toBe(200);
    await fixture.clock.advance(1);
    expect((await fetch(link)).status).toBe(410);
    const later = String(Number(link.searchParams.get("exp")) + 3600);
    expect((await fetch(withParam(link, "exp", later))).status).toBe(403);
    expect((await fetch(withParam(link, "exp", `0${link.searchParams.get("exp")}`))).status).toBe(403);
  });

  it("refuses a link re-targeted at another key", async () => {
    fixture = await startHostFixture();
    const first = await hosted(KB, "video/mp4", "a.mp4");
    const second = await hosted(PDF, "application/pdf", "b.pdf");
    const retargeted = new URL(first.link);
    retargeted.pathname = `/media/${second.key}`;
    const response = await fetch(retargeted);
    expect(response.status).toBe(403);
    expect(await response.text()).toBe("");
  });

  it("answers GET and HEAD only", async () => {
    fixture = await startHostFixture();
    const { link } = await hosted();
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const response = await request(link, { method });
      expect(response.statusCode, method).toBe(405);
      expect(response.headers.allow).toBe("GET, HEAD");
      await response.body.dump();
    }
    const path = `${link.pathname}${link.search}`;
    for (const method of ["TRACE", "PROPFIND", "DELETE"])
      expect((await rawRequest(fixture.server.port, `${method} ${path} HTTP/1.1`)).status, method).toBe(405);
    const head = await request(link, { method: "HEAD" });
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-length"]).toBe("1000");
    expect((await head.body.arrayBuffer()).byteLength).toBe(0);
  });
});

describe("self-hosted media: nothing outside the root", () => {
  it("refuses traversal in every spelling, and never serves the descriptions beside the bytes", async () => {
    fixture = await startHostFixture();
    writeFileSync(join(fixture.dir, "outside.txt"), "outside the root");
    const { link, key } = await hosted();
    const query = link.search;
    const attempts = [
      `/media/../outside.txt${query}`,
      `/media/..%2foutside.txt${query}`,
      `/media/%2e%2e/outside.txt${query}`,
      `/media/%2e%2e%2foutside.txt${query}`,
      `/media/..\\outside.txt${query}`,
      `/media/..%5coutside.txt${query}`,
      `/media/${key}%00.json${query}`,
      `/media/${key}\u0000${query}`,
      `/media/${key}.json${query}`,
      `/media/${key}.part${query}`,
      `/media/${key}/../${key}.json${query}`,
      `/media/%2e%2e/store/${key}${query}`,
      `/media//${key}${query}`,
      `/media/${key}/${query}`,
      `/${key}/x${query}`,
      `//etc/passwd${query}`,
      `/media/${encodeURIComponent(key)}%2F${query}`,
    ];
    for (const path of attempts) {
      const { status, text } = await rawRequest(fixture.server.port, `GET ${path} HTTP/1.1`);
      expect([400, 403, 404], path).toContain(status);
      expect(text, path).not.toContain("outside the root");
      expect(text, path).not.toContain("mimeType");
    }
  });

  it("lists nothing: the root, the mount path and a directory-looking path are 404 with an empty body", async () => {
    fixture = await startHostFixture();
    const { key } = await hosted();
    for (const path of ["/", "/media/", "/media", "/store/", `/media/?list`, "/media/*"]) {
      const response = await fetch(`${fixture.server.url}${path}`);
      expect(response.status, path).toBe(404);
      const body = await response.text();
      expect(body, path).not.toContain(key);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });
});

describe("self-hosted media: Range", () => {
  it("serves one range (206) and refuses lists, overlaps, and ranges past the end (416)", async () => {
    fixture = await startHostFixture();
    const { link } = await hosted();
    const part = await fetch(link, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 100-199/1000");
    expect(Buffer.from(await part.arrayBuffer())).toEqual(KB.subarray(100, 200));
    const tail = await fetch(link, { headers: { Range: "bytes=-10" } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(KB.subarray(990));
    const clamped = await fetch(link, { headers: { Range: "bytes=990-5000" } });
    expect(clamped.headers.get("content-range")).toBe("bytes 990-999/1000");
    const many = Array.from({ length: 2000 }, () => "0-999").join(",");
    for (const range of [
      "bytes=0-10,5-15",
      "bytes=0-0,0-0",
      `bytes=${many}`,
      "bytes=1000-",
      "bytes=5000-6000",
      "bytes=-0",
      "bytes=20-10",
      "bytes=-",
      "bytes=0x10-20",
      "bytes=1e3-",
      "items=0-10",
      "bytes=99999999999999999999-",
    ]) {
      const response = await fetch(link, { headers: { Range: range } });
      expect(response.status, range.slice(0, 40)).toBe(416);
      expect(response.headers.get("content-range")).toBe("bytes */1000");
      expect((await response.arrayBuffer()).byteLength).toBe(0);
    }
  });
});

describe("self-hosted media: what a link and an answer reveal", () => {
  it("a link names no file, path, store or source: only a random key, the expiry and the signature", async () => {
    fixture = await startHostFixture();
    const source = { type: "url", url: "https://cdn.example/private/q3-report.pdf?token=abc123secret" };
    const put = await fixture.host.put({
      ...bytesToHost(PDF, "application/pdf", "q3 report.pdf"),
      source,
    } as never);
    expect(put.url).toMatch(
      /^https:\/\/media\.example\/media\/[A-Za-z0-9_-]{22}\?exp=\d+&sig=[A-Za-z0-9_-]{43}$/,
    );
    // The key and signature are random base64url: they may spell "q3" by chance, so the
    // leak check reads the rest of the link.
    const rest = put.url
      .replace(/\/media\/[A-Za-z0-9_-]{22}\?/, "/media/KEY?")
      .replace(/sig=[A-Za-z0-9_-]{43}$/, "sig=SIG");
    for (const leak of ["report", "q3", "pdf", "cdn.example", "abc123secret", fixture.dir, "store"])
      expect(rest).not.toContain(leak);
    const again = await fixture.host.put(bytesToHost(PDF, "application/pdf", "q3 report.pdf"));
    expect(again.key).not.toBe(put.key);
  });

  it("documents download as attachments under their name; SVG is not shown inline", async () => {
    fixture = await startHostFixture();
    const pdf = await hosted(PDF, "application/pdf", "q3 «report».pdf");
    const response = await fetch(pdf.link);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="q3 _report_.pdf"; filename*=UTF-8''q3%20%C2%ABreport%C2%BB.pdf`,
    );
    const svg = await hosted(Buffer.from("<svg onload='alert(1)'/>"), "image/svg+xml", "x.svg");
    const image = await fetch(svg.link);
    expect(image.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(image.headers.get("content-security-policy")).toContain("sandbox");
    const png = await hosted(Buffer.from("not really a png"), "image/png", "x.png");
    expect((await fetch(png.link)).headers.get("content-disposition")).toBeNull();
  });

  it("a link is redacted in messages, errors and log lines: the signature never shows", async () => {
    fixture = await startHostFixture();
    const { url } = await hosted();
    const sig = new URL(url).searchParams.get("sig") as string;
    const path = `${new URL(url).pathname}${new URL(url).search}`;
    const lines = [
      redactSecrets(`platform could not fetch ${url}`),
      redactSecrets(`GET ${path} 403`),
      redactSecrets(JSON.stringify({ contentUrl: url })),
      new OutboxError("platform_error", `Teams refused the image ${url}`).message,
      JSON.stringify(new MediaError("fetch-failed", `fetch of ${url} failed`)),
      redactError(new Error("upstream", { cause: new Error(`GET ${path}`) })).cause instanceof Error
        ? String(
            (redactError(new Error("upstream", { cause: new Error(`GET ${path}`) })).cause as Error).message,
          )
        : "",
    ];
    for (const line of lines) {
      expect(line).not.toContain(sig);
      expect(line).not.toContain(sig.slice(0, 16));
    }
    expect(redactSecrets(`GET ${path} 403`)).toContain("sig=<redacted>");
  });

  it("every refusal says nothing about why beyond its status", async () => {
    fixture = await startHostFixture();
    const { link } = await hosted();
    const answers = await Promise.all(
      [
        withParam(link, "sig", "x".repeat(43)),
        withParam(link, "exp", "1"),
        `${fixture.server.url}/nothing`,
      ].map(async (href) => {
        const response = await fetch(href);
        return {
          status: response.status,
          body: await response.text(),
          cache: response.headers.get("cache-control"),
        };
      }),
    );
    expect(answers).toEqual([
      { status: 403, body: "", cache: "no-store" },
      { status: 403, body: "", cache: "no-store" },
      { status: 404, body: "", cache: "no-store" },
    ]);
  });
});
