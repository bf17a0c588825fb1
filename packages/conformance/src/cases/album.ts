import type { AlbumCapabilities, Capabilities, MediaAttachment } from "@outbox/core";
import { expect } from "vitest";
import { type FixtureName, fixtureBytes, fixtureSha256, sha256Hex } from "../fixtures.js";
import { conformanceMedia } from "../media-server.js";
import type { CaseDefinition, ObservedMessage } from "../types.js";
import { expectFormatted, shows } from "./formatting.js";
import { expectDelivered, mediaMessages, send } from "./helpers.js";

const hasAlbum = (c: Capabilities): true | string => c.album !== null || "album is null";

/** Every album within the rules: item count in range, all kinds from one group. */
function expectAlbumRules(observed: ObservedMessage[], rules: AlbumCapabilities): void {
  for (const album of observed.filter((m) => m.kind === "album")) {
    const kinds = (album.items ?? []).map((item) => item.kind);
    expect(kinds.length, "album size").toBeGreaterThanOrEqual(rules.minItems);
    expect(kinds.length, "album size").toBeLessThanOrEqual(rules.maxItems);
    const group = rules.groups.find((g) => kinds.every((k) => (g as string[]).includes(k)));
    expect(group, `album kinds ${kinds.join(",")} share one group`).toBeDefined();
  }
}

/** The delivered media, flattened, carry these fixtures in this order. */
function expectOrder(observed: ObservedMessage[], names: FixtureName[]): void {
  expect(
    mediaMessages(observed).map((m) => m.sha256),
    `media in order: ${names.join(", ")}`,
  ).toEqual(names.map(fixtureSha256));
}

/**
 * The PNG fixture made distinct: `variant + 1` bytes appended after its end chunk (every
 * decoder ignores them), so each copy has its own sha256 and a reordering shows.
 */
function pngVariant(variant: number): { input: MediaAttachment; sha256: string } {
  const bytes = Buffer.concat([fixtureBytes("png"), Buffer.alloc(variant + 1, variant)]);
  return {
    input: { base64: bytes.toString("base64"), mimeType: "image/png", fileName: `image-${variant}.png` },
    sha256: sha256Hex(bytes),
  };
}

/** Album cases. */
export const albumCases: CaseDefinition[] = [
  {
    id: "album.images",
    checks:
      "Two images (URL + file) go out as ONE album of two, in order, bytes intact; the receipt lists one `album`.",
    gate: "album",
    applies: hasAlbum,
    exercises: ["album"],
    async run(ctx) {
      const media = await conformanceMedia();
      const result = await send(ctx, { mediaUrls: [media.url("png"), media.file("jpeg")] });
      expectDelivered(result);
      expect(result.observed.map((m) => m.kind)).toEqual(["album"]);
      expect(
        result.observed[0]?.items?.map((m) => m.kind),
        "album item kinds",
      ).toEqual(["image", "image"]);
      expectOrder(result.observed, ["png", "jpeg"]);
    },
  },
  {
    id: "album.split",
    checks:
      "`maxItems + 1` distinct images are all delivered, in order (each one's bytes where it was sent), in albums that respect min/max items.",
    gate: "album",
    applies: hasAlbum,
    exercises: ["album"],
    async run(ctx) {
      const rules = ctx.capabilities.album as AlbumCapabilities;
      const images = Array.from({ length: rules.maxItems + 1 }, (_, i) => pngVariant(i));
      const result = await send(ctx, { media: images.map(({ input }) => input) });
      expectDelivered(result);
      expectAlbumRules(result.observed, rules);
      expect(
        mediaMessages(result.observed).map((m) => m.sha256),
        "distinct images in the order sent",
      ).toEqual(images.map(({ sha256 }) => sha256));
    },
  },
  {
    id: "album.groups",
    checks: "Image, PDF, image: only kinds of one album group share an album; order and bytes preserved.",
    gate: "album",
    applies: hasAlbum,
    exercises: ["album"],
    async run(ctx) {
      const media = await conformanceMedia();
      const result = await send(ctx, {
        mediaUrls: [media.file("png"), media.file("pdf"), media.url("jpeg")],
      });
      expectDelivered(result);
      expectAlbumRules(result.observed, ctx.capabilities.album as AlbumCapabilities);
      expectOrder(result.observed, ["png", "pdf", "jpeg"]);
    },
  },
  {
    id: "album.caption",
    checks:
      "Text that fits the caption limit becomes the caption of the album, its bold word a bold span; no separate text message.",
    gate: "album + caption",
    applies: (c) => (c.caption === null ? "caption is null" : hasAlbum(c)),
    exercises: ["album", "caption"],
    async run(ctx) {
      const media = await conformanceMedia();
      const result = await send(ctx, {
        text: "Two **pictures**",
        mediaUrls: [media.file("png"), media.url("jpeg")],
      });
      expectDelivered(result);
      expect(result.observed.map((m) => m.kind)).toEqual(["album"]);
      expect(result.observed[0]?.caption).toBe("Two pictures");
      if (shows(ctx)) expectFormatted(result.observed[0], "bold", ["pictures"]);
      expectOrder(result.observed, ["png", "jpeg"]);
    },
  },
  {
    id: "album.none",
    checks: "Without album support, two images go out as two messages, in order, bytes intact.",
    gate: "album = null",
    applies: (c) => c.album === null || "album is declared",
    exercises: [],
    async run(ctx) {
      const media = await conformanceMedia();
      const result = await send(ctx, { mediaUrls: [media.url("png"), media.file("jpeg")] });
      expectDelivered(result);
      expect(result.observed.some((m) => m.kind === "album")).toBe(false);
      expectOrder(result.observed, ["png", "jpeg"]);
    },
  },
];
