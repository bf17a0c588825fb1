import { expect } from "vitest";
import { type FixtureName, fixtures } from "../fixtures.js";
import type { CaseDefinition } from "../types.js";
import { expectFormatted, shows } from "./formatting.js";
import {
  expectBytes,
  expectDegraded,
  expectDelivered,
  expectedKind,
  mediaMessages,
  mediaPayload,
  type Source,
  send,
  visibleText,
} from "./helpers.js";

/** One fixture from one source: delivered as its native kind (or as a document, degraded), bytes intact. */
function mediaCase(id: string, name: FixtureName, source: Source, checks: string): CaseDefinition {
  const kind = fixtures[name].kind;
  return {
    id,
    checks,
    gate: `media.kinds ∋ ${kind} (else document, degraded; else failure; media.formats decide too)`,
    applies: () => true,
    exercises:
      source === "file" || source === "base64"
        ? [`media.kinds.${kind}`]
        : [`media.kinds.${kind}`, "media.byUrl"],
    async run(ctx) {
      const text = source === "media-line" ? "Here it is" : undefined;
      const result = await send(ctx, await mediaPayload(name, source, text));
      const expected = expectedKind(ctx.capabilities, kind, fixtures[name].mimeType);
      if (expected === undefined) {
        expect(result.receipt.failures.length, "the item is listed as failed").toBeGreaterThan(0);
        expect(mediaMessages(result.observed)).toEqual([]);
        return;
      }
      expectDelivered(result);
      const delivered = mediaMessages(result.observed);
      expect(delivered).toHaveLength(1);
      expect(delivered[0]?.kind).toBe(expected);
      expectBytes(delivered[0], name);
      if (expected !== kind) expectDegraded(result.receipt);
      if (text !== undefined) expect(visibleText(result.observed), "visible text").toBe(text);
    },
  };
}

/** Caption text that fits every caption limit, with one bold word. */
const SHORT_CAPTION = "A tiny **blue** square";
/** What {@link SHORT_CAPTION} shows. */
const SHORT_CAPTION_SHOWN = "A tiny blue square";

/** Media cases: every source, every kind, captions. */
export const mediaCases: CaseDefinition[] = [
  mediaCase(
    "media.image.url",
    "png",
    "url",
    "A PNG from an https URL (fixture server) arrives as an image, bytes intact.",
  ),
  mediaCase(
    "media.image.file",
    "png",
    "file",
    "A PNG from a local file inside `localRoots` arrives as an image, bytes intact.",
  ),
  mediaCase(
    "media.image.base64",
    "png",
    "base64",
    "A PNG given inline as base64 arrives as an image, bytes intact.",
  ),
  mediaCase(
    "media.image.media-line",
    "png",
    "media-line",
    "A `MEDIA:` line in the reply text becomes an image; the rest of the text is still delivered.",
  ),
  mediaCase("media.image.jpeg", "jpeg", "file", "A JPEG arrives as an image, bytes intact."),
  mediaCase("media.animation", "gif", "url", "A GIF arrives as an animation, bytes intact."),
  mediaCase("media.video", "mp4", "file", "An MP4 arrives as a video, bytes intact."),
  mediaCase("media.audio", "mp3", "file", "An MP3 arrives as an audio file, bytes intact."),
  mediaCase("media.document", "pdf", "url", "A PDF arrives as a document, bytes intact."),
  {
    id: "caption.fits",
    checks:
      "Text that fits the caption limit becomes the caption of the media message, its bold word a bold span; no separate text message.",
    gate: "caption (when null: text message, then media)",
    applies: () => true,
    exercises: ["caption"],
    async run(ctx) {
      const result = await send(ctx, await mediaPayload("png", "file", SHORT_CAPTION));
      expectDelivered(result);
      if (ctx.capabilities.caption === null) {
        expect(result.observed.map((m) => m.kind)).toEqual(["text", "image"]);
        expect(result.observed[0]?.text).toBe(SHORT_CAPTION_SHOWN);
      } else {
        expect(result.observed).toHaveLength(1);
        expect(result.observed[0]?.caption, "caption").toBe(SHORT_CAPTION_SHOWN);
      }
      if (shows(ctx)) expectFormatted(result.observed[0], "bold", ["blue"]);
      expectBytes(mediaMessages(result.observed)[0], "png");
    },
  },
  {
    id: "caption.too-long",
    checks:
      "Text over the caption limit goes first as its own message(s), whole; the media follows without a caption.",
    gate: "caption",
    applies: (c) => c.caption !== null || "caption is null",
    exercises: ["caption"],
    async run(ctx) {
      const limit = ctx.capabilities.caption?.maxLength ?? 0;
      const words = Array.from({ length: Math.ceil((limit + 40) / 6) }, (_, i) => `c${i}`.padEnd(5, "z"));
      const result = await send(ctx, await mediaPayload("png", "file", words.join(" ")));
      expectDelivered(result);
      const last = result.observed.at(-1);
      expect(last?.kind).toBe("image");
      expect(last?.caption ?? "").toBe("");
      expectBytes(last, "png");
      expect(result.observed.slice(0, -1).every((m) => m.kind === "text")).toBe(true);
      expect(visibleText(result.observed).split(" ")).toEqual(words);
    },
  },
];
