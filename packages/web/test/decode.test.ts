/**
 * The DOM decoder on static HTML written to the DOM contract (docs/adapters/web.md), laid out
 * by Chromium: what each message decodes to, its formatting spans, media facts read from the
 * bytes the browser fetched, and what a person cannot see left out.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeInbox, toObserved } from "../src/conformance/decode.js";
import { snapshotInbox } from "../src/conformance/snapshot.js";
import { BROWSER_TIMEOUT_MS, browserLabel, noBrowser, useBrowser } from "./support/browser.js";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Serves `/` (the fixture page, set per test) and `/media/dot.png`. */
function fixtureServer(): { server: Server; url: () => string; page: { html: string } } {
  const page = { html: "" };
  const server = createServer((req, res) => {
    if (req.url === "/media/dot.png") {
      res.writeHead(200, { "content-type": "image/png" }).end(PNG);
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page.html);
  });
  return { server, page, url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

describe.skipIf(noBrowser)(
  `decoding the rendered inbox ${browserLabel}`,
  { timeout: BROWSER_TIMEOUT_MS },
  () => {
    const handle = useBrowser();
    const fixture = fixtureServer();
    beforeAll(() => new Promise<void>((resolve) => fixture.server.listen(0, "127.0.0.1", resolve)));
    afterAll(() => new Promise<void>((resolve) => fixture.server.close(() => resolve())));

    async function decode(body: string, options?: { probeMedia?: boolean }) {
      fixture.page.html = `<!doctype html><meta charset="utf-8"><main id="ob-messages" data-conversation="c1">${body}</main>`;
      const { context, page } = await handle.newPage();
      try {
        await page.goto(fixture.url());
        return decodeInbox(await snapshotInbox(page, options));
      } finally {
        await context.close();
      }
    }

    it("text: visible text as laid out, with spans for every formatting element", async () => {
      const [message] = await decode(`
      <article class="ob-message" data-id="m1" data-kind="text" data-reply-to="m0" data-thread="t1">
        <blockquote class="ob-reply-ref" data-reply-to="m0">the message replied to</blockquote>
        <div class="ob-text"><p>The   deploy is <strong>done</strong>: <em>all</em> green,
          <del>two</del> <code>v2</code> <a href="https://example.com/r">the runbook</a>
          <span class="ob-spoiler">secret</span></p>
          <blockquote><p>quoted words</p></blockquote>
          <pre><code class="language-sh">line 1
  line 2
</code></pre><ol><li>one</li><li>two <b>x</b></li></ol></div>
      </article>`);
      expect(message).toMatchObject({ id: "m1", kind: "text", replyTo: "m0", thread: "t1" });
      const text = message?.text ?? "";
      expect(text).toBe(
        "The deploy is done: all green, two v2 the runbook secret\n\nquoted words\n\nline 1\n  line 2\n\n1. one\n2. two x",
      );
      const covered = (message?.formatting ?? []).map((s) => [
        s.kind,
        text.slice(s.offset, s.offset + s.length),
      ]);
      expect(covered).toEqual([
        ["bold", "done"],
        ["italic", "all"],
        ["strike", "two"],
        ["code", "v2"],
        ["link", "the runbook"],
        ["spoiler", "secret"],
        ["quote", "quoted words"],
        ["pre", "line 1\n  line 2"],
        ["bold", "x"],
      ]);
      expect(message?.formatting?.find((s) => s.kind === "link")?.url).toBe("https://example.com/r");
      expect(message?.formatting?.find((s) => s.kind === "pre")?.language).toBe("sh");
    });

    it("what the browser does not render is not text", async () => {
      const [message] = await decode(`<article class="ob-message" data-id="m1" data-kind="text">
      <div class="ob-text"><p>seen<span style="display:none"> hidden</span> <span hidden>gone</span>too</p></div></article>`);
      expect(message?.text).toBe("seen too");
    });

    it("media: caption, file facts and the sha256 of the bytes the browser fetched", async () => {
      const messages = await decode(`
      <article class="ob-message" data-id="m2" data-kind="image">
        <figure class="ob-media" data-kind="image" data-name="dot.png" data-mime="image/png"
          data-sha256="${"0".repeat(64)}" data-bytes="1"><img src="/media/dot.png" alt=""></figure>
        <div class="ob-text"><p>a <strong>blue</strong> dot</p></div>
      </article>
      <article class="ob-message" data-id="m3" data-kind="voice">
        <figure class="ob-media" data-kind="voice" data-name="v.ogg" data-mime="audio/ogg" data-duration-ms="1500">
          <audio controls src="/media/missing.ogg"></audio></figure>
      </article>`);
      expect(messages[0]).toMatchObject({
        kind: "image",
        caption: "a blue dot",
        fileName: "dot.png",
        mimeType: "image/png",
        sha256: sha(PNG),
        bytes: PNG.length,
        status: 200,
      });
      expect(messages[0]?.formatting).toEqual([{ kind: "bold", offset: 2, length: 4 }]);
      expect(messages[1]).toMatchObject({ kind: "voice", fileName: "v.ogg", durationMs: 1500 });
      expect(messages[1]?.status, "the fallback page is HTML, not the voice note").toBe(200);
      expect(messages[1]?.sha256).not.toBe(sha(PNG));
      const unprobed = await decode(
        `<article class="ob-message" data-id="m2" data-kind="image"><figure class="ob-media" data-kind="image"
        data-sha256="abc" data-bytes="7"><img src="/media/dot.png"></figure></article>`,
        { probeMedia: false },
      );
      expect(unprobed[0]).toMatchObject({ sha256: "abc", bytes: 7 });
    });

    it("album: gallery members in order, caption on the album; embeds as frames or links", async () => {
      const messages = await decode(`
      <article class="ob-message" data-id="m4" data-kind="album">
        <div class="ob-gallery">
          <figure class="ob-media" data-kind="image" data-name="a.png"><img src="/media/dot.png"></figure>
          <figure class="ob-media" data-kind="document" data-name="b.pdf"><a class="ob-download" download href="/media/dot.png">b.pdf</a></figure>
        </div>
        <div class="ob-text"><p>two files</p></div>
      </article>
      <article class="ob-message" data-id="m5" data-kind="embed">
        <figure class="ob-embed"><iframe sandbox="allow-scripts" src="https://example.com/c" height="320" title="Latency"></iframe></figure>
        <a class="ob-embed-link" href="http://example.com/x">Old</a>
      </article>`);
      expect(messages[0]?.caption).toBe("two files");
      expect(messages[0]?.items?.map((i) => [i.kind, i.fileName, i.sha256])).toEqual([
        ["image", "a.png", sha(PNG)],
        ["document", "b.pdf", sha(PNG)],
      ]);
      expect(messages[1]?.embeds).toEqual([
        {
          shown: "frame",
          url: "https://example.com/c",
          sandbox: "allow-scripts",
          height: 320,
          title: "Latency",
        },
        { shown: "link", url: "http://example.com/x", title: "Old" },
      ]);
      expect(
        toObserved(messages).map((m) => m.kind),
        "embed-only messages have no observed kind",
      ).toEqual(["album"]);
    });

    it("a page without #ob-messages decodes to nothing; an unknown data-kind is an error", async () => {
      fixture.page.html = "<p>nothing</p>";
      const { context, page } = await handle.newPage();
      await page.goto(fixture.url());
      expect(decodeInbox(await snapshotInbox(page))).toEqual([]);
      await context.close();
      await expect(
        decode(`<article class="ob-message" data-id="x" data-kind="sticker"></article>`),
      ).rejects.toThrow(/unknown data-kind "sticker"/);
    });
  },
);
