/**
 * Media the platform fetches by URL: an item's own URL passed through (opt-in), and a media
 * host's link for an item the platform takes no upload of. Judged by what the emulator
 * fetched and the bytes the chat shows, not by what the adapter says it did.
 */
import { type Capabilities, type MediaError, uploadLimit } from "@outbox/core";
import { expect } from "vitest";
import { unobservable } from "../case-unobservable.js";
import { conformanceMedia } from "../media-server.js";
import type { CaseContext, CaseDefinition, ConformanceInstance, ConformanceSetup } from "../types.js";
import { expectBytes, expectDelivered, expectedKind, mediaMessages, send } from "./helpers.js";

/** Where the platform fetches URLs at all. */
const fetchesUrls = (capabilities: Capabilities): true | string =>
  capabilities.media.byUrl === undefined ? "the platform fetches no URLs (no media.byUrl)" : true;

/** Where an https item is uploaded unless the integrator opts in to passing it through. */
const uploadsUnlessOptedIn = (capabilities: Capabilities): true | string =>
  capabilities.media.uploads === false
    ? "the platform takes no uploaded bytes (media.uploads: false)"
    : fetchesUrls(capabilities);

/**
 * The fixture only a media host carries: the PNG where images are never uploaded, else the PDF
 * where documents are never uploaded (Teams takes small images inline, every other file by link).
 */
function hostedFixture(capabilities: Capabilities): "png" | "pdf" | undefined {
  if (uploadLimit(capabilities, "image") === 0) return "png";
  if (uploadLimit(capabilities, "document") === 0) return "pdf";
  return undefined;
}

/** Where an item goes through a media host: the platform fetches URLs and never uploads that kind. */
const needsHost = (capabilities: Capabilities): true | string =>
  capabilities.media.byUrl !== undefined && hostedFixture(capabilities) !== undefined
    ? true
    : "the platform uploads images and documents (media.uploads is not false, no upload limit of 0), so no item needs a media host";

/** A fresh instance with `setup`, as a case context, and what its emulator fetched. */
async function withMedia(
  ctx: CaseContext,
  setup: ConformanceSetup,
): Promise<{ ctx: CaseContext; fetched: () => string[] }> {
  const instance: ConformanceInstance = await ctx.setupWith(setup);
  return { ctx: { ...ctx, ...instance }, fetched: fetchedOf(ctx, instance) };
}

function fetchedOf(ctx: CaseContext, instance: ConformanceInstance): () => string[] {
  const { fetched } = instance;
  if (fetched === undefined)
    unobservable(
      ctx,
      "the harness cannot tell which URLs the emulator fetched (add fetched() to its instance)",
    );
  return () => fetched.call(instance);
}

/** A unique URL of the PNG fixture, so this case's fetches are told apart from others'. */
async function pngUrl(): Promise<string> {
  return (await conformanceMedia()).url("png", Date.now() * 1000 + Math.floor(Math.random() * 1000));
}

/** Media travel cases: pass-through and hosted links. */
export const mediaTravelCases: CaseDefinition[] = [
  {
    id: "media.pass-through",
    checks:
      'With `media.passThrough`, a PNG by https URL is handed to the platform, which fetches that URL itself: the emulator fetched it, the chat shows its bytes, and the receipt says `via: "url"`.',
    gate: "media.byUrl",
    applies: fetchesUrls,
    exercises: ["media.byUrl"],
    async run(base) {
      const { ctx, fetched } = await withMedia(base, { media: { passThrough: true } });
      const url = await pngUrl();
      const result = await send(ctx, { text: "", mediaUrls: [url] });
      expectDelivered(result);
      expect(fetched(), "URLs the platform fetched").toEqual([url]);
      const delivered = mediaMessages(result.observed);
      expect(delivered).toHaveLength(1);
      expect(delivered[0]?.kind).toBe(expectedKind(ctx.capabilities, "image", "image/png"));
      expectBytes(delivered[0], "png");
      expect(result.receipt.messages[0]?.media, "receipt: how the item went").toEqual([
        { source: 0, via: "url" },
      ]);
    },
  },
  {
    id: "media.pass-through.opt-in",
    checks:
      "Without `media.passThrough`, a PNG by https URL is uploaded: the emulator fetched nothing, and the receipt lists no other way than uploaded bytes.",
    gate: "media.byUrl and uploads",
    applies: uploadsUnlessOptedIn,
    exercises: ["media.byUrl"],
    async run(ctx) {
      const fetched = fetchedOf(ctx, ctx);
      const result = await send(ctx, { text: "", mediaUrls: [await pngUrl()] });
      expectDelivered(result);
      expect(fetched(), "URLs the platform fetched").toEqual([]);
      expectBytes(mediaMessages(result.observed)[0], "png");
      expect(result.receipt.messages[0]?.media, "receipt: uploaded").toBeUndefined();
    },
  },
  {
    id: "media.pass-through.blocked",
    checks:
      "With `media.passThrough`, URLs the policy refuses (private address, `http:`, `localhost`) are never handed over: no fetch by the platform, no connection to the decoy, a `blocked` failure each.",
    gate: "media.byUrl",
    applies: fetchesUrls,
    exercises: ["media.byUrl"],
    async run(base) {
      const { ctx, fetched } = await withMedia(base, { media: { passThrough: true } });
      const media = await conformanceMedia();
      const before = media.decoy.connections();
      const result = await send(ctx, { text: "Pass-through check.", mediaUrls: media.decoy.blockedUrls });
      expect(media.decoy.connections() - before, "connections to the decoy").toBe(0);
      expect(fetched(), "URLs the platform fetched").toEqual([]);
      expect(result.receipt.failures).toHaveLength(media.decoy.blockedUrls.length);
      for (const failure of result.receipt.failures)
        expect((failure.error as MediaError).reason, failure.error.message).toBe("blocked");
      expect(mediaMessages(result.observed)).toEqual([]);
    },
  },
  {
    id: "media.hosted",
    checks:
      "A PNG from a local file (a PDF where images are uploaded), on a platform that takes no upload of it, is put on the media host: the platform fetched the host's link (which names neither the file nor its path), the chat shows its bytes, and the receipt says `via: \"hosted\"` with the link's expiry.",
    gate: "media.byUrl and an upload limit of 0",
    applies: needsHost,
    exercises: ["media.byUrl"],
    async run(base) {
      const media = await conformanceMedia();
      const { ctx, fetched } = await withMedia(base, { media: { host: media.host } });
      const fixture = hostedFixture(ctx.capabilities) ?? "png";
      const result = await send(ctx, { text: "", mediaUrls: [media.file(fixture)] });
      expectDelivered(result);
      const urls = fetched();
      expect(urls, "the platform fetched one link").toHaveLength(1);
      expect(urls[0]?.startsWith(media.hostedPrefix), `${urls[0]} is the host's`).toBe(true);
      expect(urls[0], "the link names no file").not.toMatch(/png|pdf|fixtures/i);
      expectBytes(mediaMessages(result.observed)[0], fixture);
      const entry = result.receipt.messages[0]?.media?.[0];
      expect(entry?.via, "receipt: how the item went").toBe("hosted");
      expect(entry?.expiresAt, "receipt: the link's expiry").toBeGreaterThan(Date.now());
    },
  },
  {
    id: "media.hosted.none",
    checks:
      "Without a media host, a local file on a platform that takes no upload of it is a failure whose action names `media.host`; nothing is fetched or shown for it, the text still goes.",
    gate: "media.byUrl and an upload limit of 0",
    applies: needsHost,
    exercises: [],
    async run(base) {
      const media = await conformanceMedia();
      // Explicitly without: a harness of a platform that takes no upload sets the suite's host by default.
      const { ctx, fetched } = await withMedia(base, { media: { host: undefined } });
      const fixture = hostedFixture(ctx.capabilities) ?? "png";
      const result = await send(ctx, { text: "Host check.", mediaUrls: [media.file(fixture)] });
      expect(result.receipt.failures).toHaveLength(1);
      expect(result.receipt.failures[0]?.action).toContain("media.host");
      expect(fetched()).toEqual([]);
      expect(mediaMessages(result.observed)).toEqual([]);
    },
  },
];
