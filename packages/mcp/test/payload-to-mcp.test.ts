import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conformanceMedia, fixtureSha256 } from "@outbox/conformance";
import type { LoadedMedia } from "@outbox/core";
import { describe, expect, it, onTestFinished } from "vitest";
import { readCapped } from "../src/content/read-capped.js";
import { payloadToMcpContent } from "../src/index.js";

const sha = (base64: string): string =>
  createHash("sha256").update(Buffer.from(base64, "base64")).digest("hex");

describe("payloadToMcpContent", () => {
  it("gives text, images as ImageContent and the rest as embedded resources, base64 only", async () => {
    const media = await conformanceMedia();
    const root = mkdtempSync(join(tmpdir(), "outbox-mcp-test-"));
    writeFileSync(join(root, "notes.txt"), "plain notes\n");
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    const policy = { ...media.policy, localRoots: [...(media.policy.localRoots ?? []), root] };
    const { content, warnings } = await payloadToMcpContent(
      {
        text: "**Report**",
        mediaUrls: [media.url("png"), media.file("pdf"), join(root, "notes.txt"), media.file("mp3")],
      },
      policy,
    );
    expect(warnings).toEqual([]);
    expect(content.map((b) => b.type)).toEqual(["text", "image", "resource", "resource", "resource"]);
    const [text, image, pdf, notes, mp3] = content;
    expect(text).toEqual({ type: "text", text: "**Report**" });
    expect(image?.type === "image" && image.mimeType).toBe("image/png");
    expect(image?.type === "image" && sha(image.data)).toBe(fixtureSha256("png"));
    expect(pdf).toMatchObject({ resource: { uri: "attachment://doc.pdf", mimeType: "application/pdf" } });
    expect(pdf?.type === "resource" && "blob" in pdf.resource && sha(pdf.resource.blob)).toBe(
      fixtureSha256("pdf"),
    );
    expect(notes).toEqual({
      type: "resource",
      resource: { uri: "attachment://notes.txt", mimeType: "text/plain", text: "plain notes\n" },
    });
    expect(mp3).toMatchObject({ resource: { uri: "attachment://song.mp3", mimeType: "audio/mpeg" } });
    expect(JSON.stringify(content)).not.toContain("https://");
  });

  it("skips what the policy refuses, with a warning, and never connects or reads it", async () => {
    const media = await conformanceMedia();
    const before = media.decoy.connections();
    const { content, warnings } = await payloadToMcpContent(
      { text: "x", mediaUrls: [...media.decoy.blockedUrls, media.outsideFile, media.url("jpeg")] },
      media.policy,
    );
    expect(media.decoy.connections()).toBe(before);
    expect(warnings).toHaveLength(media.decoy.blockedUrls.length + 1);
    for (const warning of warnings) expect(warning).toMatch(/^media item \d+ skipped: /);
    expect(content.filter((b) => b.type === "image")).toHaveLength(1);
    expect(JSON.stringify(content)).not.toContain(media.outsideFileText);
    expect(JSON.stringify(content)).not.toContain(Buffer.from(media.outsideFileText).toString("base64"));
  });

  it("names a MEDIA: line the parser refused in a warning", async () => {
    const { warnings } = await payloadToMcpContent({ text: "secrets\nMEDIA: ../../.env" }, {});
    expect(warnings).toEqual([expect.stringMatching(/^media \.\.\/\.\.\/\.env skipped: \S/)]);
  });

  it("omits items over the per-item limit and stops at the response limit, with the warning texts", async () => {
    const media = await conformanceMedia();
    const perItem = await payloadToMcpContent(
      { mediaUrls: [media.file("png"), media.file("mp4"), media.file("jpeg")] },
      media.policy,
      { maxItemBytes: 600 },
    );
    expect(perItem.content.map((b) => b.type)).toEqual(["image", "image", "text"]);
    expect(perItem.warnings).toEqual(["1 media item(s) omitted: per-item size limit"]);
    const response = await payloadToMcpContent(
      { mediaUrls: [media.file("png"), media.file("jpeg"), media.file("pdf"), media.file("gif")] },
      media.policy,
      { maxResponseBytes: 1200 },
    );
    expect(response.content.filter((b) => b.type !== "text")).toHaveLength(2);
    expect(response.warnings).toEqual(["2 media item(s) omitted: response size limit"]);
    expect(response.content.at(-1)).toEqual({
      type: "text",
      text: "2 media item(s) omitted: response size limit",
    });
  });

  it("applies the default 20 MB per item and 50 MB per response", async () => {
    const root = mkdtempSync(join(tmpdir(), "outbox-mcp-big-"));
    const names = ["big.bin", "a.bin", "b.bin", "c.bin"];
    const sizes = [21 * 1024 * 1024, 19 * 1024 * 1024, 19 * 1024 * 1024, 19 * 1024 * 1024];
    names.forEach((name, i) => {
      writeFileSync(join(root, name), "");
      truncateSync(join(root, name), sizes[i]);
    });
    const { content, warnings } = await payloadToMcpContent(
      { mediaUrls: names.map((name) => join(root, name)) },
      { localRoots: [root] },
    ).finally(() => rmSync(root, { recursive: true, force: true }));
    expect(content.filter((b) => b.type === "resource")).toHaveLength(2);
    expect(warnings).toEqual([
      "1 media item(s) omitted: per-item size limit",
      "1 media item(s) omitted: response size limit",
    ]);
  });

  it("stops reading a stream as soon as it passes the cap", async () => {
    let pulled = 0;
    const endless = {
      size: 10,
      open: async function* () {
        for (;;) {
          pulled += 1;
          yield new Uint8Array(1024);
        }
      },
    } as unknown as LoadedMedia;
    expect(await readCapped(endless, 4096)).toBeUndefined();
    expect(pulled).toBe(5);
  });
});
