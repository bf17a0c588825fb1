import { type CanvasEmbed, PayloadError } from "@outbox/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryWebStore, createWebAdapter, createWebInboxApp, embedSource } from "../src/index.js";
import { renderArticle } from "../src/server/article.js";
import { authed, createEmulatedChannel, type WebEmulatedChannel } from "./support.js";

let channel: WebEmulatedChannel;
beforeEach(async () => {
  channel = await createEmulatedChannel();
});
afterEach(async () => {
  await channel.close();
});

const canvas = (url: string, extra: Partial<CanvasEmbed["preview"]> = {}): CanvasEmbed => ({
  type: "canvas",
  preview: { kind: "canvas", surface: "assistant_message", render: "url", url, ...extra },
});

const page = async () => (await (await authed(channel, "")).text()).split("<main")[1] ?? "";

describe("embed policy", () => {
  it("frames https URLs and root-relative paths only", () => {
    expect(embedSource("https://canvas.example.com/v/1")).toBe("https://canvas.example.com/v/1");
    expect(embedSource("/__openclaw__/canvas/documents/cv_1/index.html")).toBe(
      "/__openclaw__/canvas/documents/cv_1/index.html",
    );
    for (const refused of [
      "http://canvas.example.com/",
      "//evil.example.com/x",
      "/\\evil.example.com/x",
      "/a b",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "relative/path",
      "",
    ])
      expect(embedSource(refused), refused).toBeUndefined();
  });

  it("root-relative canvases stay under the canvas prefix unless the host allows more", () => {
    for (const refused of [
      "/account/delete?confirm=1",
      "/__openclaw__/canvas/../../account/delete",
      "/__openclaw__/canvas/%2e%2e/%2e%2e/account",
      "/__openclaw__/canvasX/doc",
    ])
      expect(embedSource(refused), refused).toBeUndefined();
    expect(embedSource("/__openclaw__/canvas/documents/a/./b.html?x=1")).toBe(
      "/__openclaw__/canvas/documents/a/b.html?x=1",
    );
    expect(embedSource("/dash/cpu?range=1h", ["/dash/"])).toBe("/dash/cpu?range=1h");
    expect(embedSource("/dash/../admin", ["/dash/"])).toBeUndefined();
    expect(() =>
      createWebInboxApp({ auth: { secret: "s".repeat(32) }, embedPaths: ["//evil.example/"] }),
    ).toThrow(/^the web inbox: `embedPaths\[0\]` must be a root-relative path .*; fix: /);
  });

  it("an inbox whose host allows another prefix frames canvases from it", async () => {
    const store = createMemoryWebStore();
    const { app, tokenFor } = createWebInboxApp({
      auth: { secret: "s".repeat(32) },
      store,
      embedPaths: ["/dash/"],
    });
    await createWebAdapter({ store }).send(
      { text: "x", embeds: [canvas("/dash/cpu"), canvas("/__openclaw__/canvas/documents/a/index.html")] },
      { to: "room" },
    );
    const html = await (
      await app.request("/c/room/", { headers: { Authorization: `Bearer ${tokenFor("room")}` } })
    ).text();
    expect(html).toContain('<iframe sandbox="allow-scripts" src="/dash/cpu"');
    expect(html).not.toContain('src="/__openclaw__/canvas/documents/a/index.html"');
  });

  it("an [embed ref] renders as a sandboxed frame with its preferred height, after the text", async () => {
    await channel.adapter.send(
      { text: 'Status below.\n[embed ref="cv_1" title="Status" height="480" /]' },
      channel.target,
    );
    const html = await page();
    expect(html).toContain('<article class="ob-message" data-id="' /* id */);
    expect(html).toMatch(
      /<article class="ob-message" data-id="[^"]+" data-kind="embed" data-author="assistant"><figure class="ob-embed"><iframe sandbox="allow-scripts" src="\/__openclaw__\/canvas\/documents\/cv_1\/index.html" height="480" title="Status"/,
    );
    expect(html).not.toMatch(/allow-same-origin/);
    expect(html.indexOf("Status below.")).toBeLessThan(html.indexOf('data-kind="embed"'));
    expect(channel.observe().map((message) => message.text)).toEqual(["Status below."]);
  });

  it("structured embeds outside the policy show as links, never frames; unsafe schemes get no href", async () => {
    await channel.adapter.send(
      {
        text: "See",
        embeds: [canvas("http://plain.example.com/v", { title: "Plain" }), canvas("javascript:alert(1)")],
      },
      channel.target,
    );
    const html = await page();
    expect(html).not.toContain("<iframe");
    expect(html).toContain(
      '<a class="ob-embed-link" href="http://plain.example.com/v" rel="noopener noreferrer nofollow" target="_blank">Plain: http://plain.example.com/v</a>',
    );
    expect(html).toContain('<a class="ob-embed-link">Canvas: javascript:alert(1)</a>');
  });

  it("refuses an out-of-range height before storing anything; a stored one is clamped to 160–1200", async () => {
    await expect(
      channel.adapter.send(
        { embeds: [canvas("https://c.example.com/1", { preferredHeight: 99_999 })] },
        channel.target,
      ),
    ).rejects.toThrow(PayloadError);
    expect(await channel.inbox.store.list("demo")).toHaveLength(1); // the seeded inbound message only
    const stored = (preferredHeight: number) =>
      renderArticle({
        id: "e",
        conversation: "demo",
        author: "assistant",
        kind: "embed",
        embed: canvas("https://c.example.com/1", { preferredHeight }).preview,
        createdAt: "2026-01-01T00:00:00.000Z",
      });
    expect(stored(99_999)).toContain('height="1200"');
    expect(stored(1)).toContain('height="160"');
    expect(stored(Number.NaN)).toContain('height="320"');
  });

  it("with an idempotency key a repeated send appends no second embed", async () => {
    const payload = { text: "Once", embeds: [canvas("https://c.example.com/once")] };
    await channel.adapter.send(payload, channel.target, { idempotencyKey: "k1" });
    await channel.adapter.send(payload, channel.target, { idempotencyKey: "k1" });
    expect((await page()).match(/data-kind="embed"/g)).toHaveLength(1);
  });
});
