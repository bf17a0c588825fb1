import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { MediaKind } from "@outbox/core";

/** Absolute path of the committed fixtures directory (media files). */
export const fixturesDir: string = fileURLToPath(new URL("../fixtures/", import.meta.url));

/** A tiny but real media file the suite sends. */
export interface Fixture {
  /** File name inside {@link fixturesDir}. */
  fileName: string;
  /** What a loader must sniff it as. */
  kind: MediaKind;
  /** Its MIME type. */
  mimeType: string;
}

/** The fixtures, by role. Every file is sniffed correctly by `file-type`. */
export const fixtures = {
  /** 8×8 PNG. */
  png: { fileName: "image.png", kind: "image", mimeType: "image/png" },
  /** 16×16 JPEG. */
  jpeg: { fileName: "photo.jpg", kind: "image", mimeType: "image/jpeg" },
  /** Two-frame 8×8 GIF (an animation). */
  gif: { fileName: "anim.gif", kind: "animation", mimeType: "image/gif" },
  /** Short 16×16 H.264 MP4. */
  mp4: { fileName: "clip.mp4", kind: "video", mimeType: "video/mp4" },
  /** Short mono OGG/Opus voice note with a correct final granule position. */
  ogg: { fileName: "voice.ogg", kind: "audio", mimeType: "audio/ogg" },
  /** Short MP3. */
  mp3: { fileName: "song.mp3", kind: "audio", mimeType: "audio/mpeg" },
  /** Short PCM WAV (not voice-compatible anywhere). */
  wav: { fileName: "tone.wav", kind: "audio", mimeType: "audio/wav" },
  /** One-page PDF. */
  pdf: { fileName: "doc.pdf", kind: "document", mimeType: "application/pdf" },
} as const satisfies Record<string, Fixture>;

/** Role of a fixture (`png`, `ogg`, …). */
export type FixtureName = keyof typeof fixtures;

/** Absolute path of a fixture file. */
export function fixturePath(name: FixtureName): string {
  return `${fixturesDir}${fixtures[name].fileName}`;
}

/** The bytes of a fixture file. */
export function fixtureBytes(name: FixtureName): Buffer {
  return readFileSync(fixturePath(name));
}

/** Hex sha256 of a fixture file, as an emulator reports it in `ObservedMessage.sha256`. */
export function fixtureSha256(name: FixtureName): string {
  return sha256Hex(fixtureBytes(name));
}

/** Hex sha256 of some bytes. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
