/**
 * Media passed through by `link`, judged by what the emulator fetched: with a link fetcher
 * the emulator downloads the link as Meta does (https, no redirects, the message type's
 * types and size), so the chat shows the bytes the platform actually got.
 */
import { createHash } from "node:crypto";
import { conformanceMedia, fixtureBytes } from "@outbox/conformance";
import { afterEach, describe, expect, it } from "vitest";
import { createWhatsAppAdapter } from "../src/index.js";
import { createLinkFetcher, startWhatsAppEmulator } from "../src/testing/index.js";

const TO = "15550001111";
const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function setup() {
  const media = await conformanceMedia();
  const e = await startWhatsAppEmulator({
    limits: false,
    links: createLinkFetcher({
      ca: media.ca,
      ...(media.policy.lookup ? { lookup: media.policy.lookup } : {}),
    }),
  });
  open.push(e);
  e.seedMessage(TO, "hello");
  const { token, phoneNumberId, graphApiUrl } = e;
  const adapter = createWhatsAppAdapter({
    token,
    phoneNumberId,
    graphApiUrl,
    mediaByLink: "link",
    media: media.policy,
  });
  open.push({ close: async () => adapter.close?.() });
  return { e, adapter, media };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("media by link, fetched by the emulator", () => {
  it("the emulator downloads the link: the chat shows the fixture's own bytes, and Outbox uploaded none", async () => {
    const { e, adapter, media } = await setup();
    const url = media.url("jpeg", 7);
    const receipt = await adapter.send({ text: "", mediaUrls: [url] }, { to: TO });
    expect(receipt.ok).toBe(true);
    expect(e.requests.map((r) => r.method)).toEqual(["messages"]);
    const jpeg = fixtureBytes("jpeg");
    expect(e.observe(TO)).toEqual([
      expect.objectContaining({
        kind: "image",
        mimeType: "image/jpeg",
        bytes: jpeg.byteLength,
        sha256: sha256(jpeg),
      }),
    ]);
    // Once by Outbox's loader (the type and size check), once by the platform.
    expect(media.served().filter((path) => path.endsWith("?n=7"))).toHaveLength(2);
  });

  it("the fetcher refuses a link that answers an error or whose type the message type does not take", async () => {
    const media = await conformanceMedia();
    const png = fixtureBytes("png");
    const fetcher = createLinkFetcher({
      ca: media.ca,
      ...(media.policy.lookup ? { lookup: media.policy.lookup } : {}),
    });
    open.push(fetcher);
    const base = media.url("png").replace(/\/[^/]*$/, "");
    const messages = [
      { id: "a", waId: TO, type: "image", link: `${base}/missing.png` },
      { id: "b", waId: TO, type: "image", link: media.url("pdf") },
      { id: "c", waId: TO, type: "document", link: media.url("png") },
    ];
    for (const message of messages) fetcher.track(message);
    await fetcher.settled();
    expect(fetcher.fetches()).toEqual([
      { ok: false, url: `${base}/missing.png`, error: "the link answered HTTP 404" },
      expect.objectContaining({
        ok: false,
        error: expect.stringContaining("image messages take image/jpeg, image/png"),
      }),
      { ok: true, url: media.url("png"), mimeType: "image/png", bytes: png.byteLength, sha256: sha256(png) },
    ]);
  });
});
