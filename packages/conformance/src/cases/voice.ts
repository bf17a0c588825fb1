import type { ReplyPayloadInput } from "@outbox/core";
import { expect } from "vitest";
import { type FixtureName, fixtures } from "../fixtures.js";
import { conformanceMedia } from "../media-server.js";
import type { CaseContext, CaseDefinition } from "../types.js";
import {
  expectBytes,
  expectDegraded,
  expectDelivered,
  expectedKind,
  mediaMessages,
  type SendResult,
  send,
  visibleText,
  voiceNative,
} from "./helpers.js";

/** Send audio asked to go as voice; expect a native voice note, or an audio file with a degraded entry. */
async function expectVoiceOutcome(
  ctx: CaseContext,
  name: FixtureName,
  payload: ReplyPayloadInput,
): Promise<SendResult> {
  const result = await send(ctx, payload);
  const { mimeType } = fixtures[name];
  const native = voiceNative(ctx.capabilities, mimeType);
  if (!native && expectedKind(ctx.capabilities, "audio", mimeType) === undefined) {
    // A type the platform takes in no kind (`media.formats`): refused before any call, listed as failed.
    expect(
      result.receipt.failures.map((f) => f.error.code),
      "the item is listed as unsupported",
    ).toEqual(["media_unsupported_type"]);
    expect(mediaMessages(result.observed)).toEqual([]);
    return result;
  }
  expectDelivered(result);
  const delivered = mediaMessages(result.observed);
  expect(delivered).toHaveLength(1);
  if (native) {
    expect(delivered[0]?.kind).toBe("voice");
    expect(result.receipt.degraded).toEqual([]);
  } else {
    expect(delivered[0]?.kind).toBe(expectedKind(ctx.capabilities, "audio", mimeType));
    expectDegraded(result.receipt);
  }
  expectBytes(delivered[0], name);
  return result;
}

/** Voice cases. */
export const voiceCases: CaseDefinition[] = [
  {
    id: "voice.ogg",
    checks:
      "OGG/Opus with `audioAsVoice` is a native voice note where `voice.mode` is `native` and lists `audio/ogg`; otherwise an audio file with a `degraded` entry.",
    gate: "voice.mode / voice.formats",
    applies: () => true,
    exercises: ["voice"],
    async run(ctx) {
      const media = await conformanceMedia();
      await expectVoiceOutcome(ctx, "ogg", { mediaUrls: [media.file("ogg")], audioAsVoice: true });
    },
  },
  {
    id: "voice.tag",
    checks:
      "`[[audio_as_voice]]` with a `MEDIA:` line behaves like `voice.ogg`, and neither directive is visible.",
    gate: "voice.mode / voice.formats",
    applies: () => true,
    exercises: ["voice"],
    async run(ctx) {
      const media = await conformanceMedia();
      const result = await expectVoiceOutcome(ctx, "ogg", {
        text: `[[audio_as_voice]]\nMEDIA: ${media.url("ogg")}`,
      });
      expect(visibleText(result.observed), "no directive is visible").toBe("");
    },
  },
  {
    id: "voice.incompatible",
    checks:
      "WAV with `audioAsVoice` (a format no voice note accepts) goes as an audio file with a `degraded` entry (a document where `media.formats` keeps it from audio; a `media_unsupported_type` failure where no kind takes it).",
    gate: "always",
    applies: () => true,
    exercises: ["voice"],
    async run(ctx) {
      const media = await conformanceMedia();
      await expectVoiceOutcome(ctx, "wav", { mediaUrls: [media.file("wav")], audioAsVoice: true });
    },
  },
];
