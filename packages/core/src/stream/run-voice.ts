/**
 * The voice wish of an agent run: an `[[audio_as_voice]]` tag counts for the whole run, as it
 * does for a whole reply (docs/streaming.md, "Tags written late"). Audio sent after the run read it
 * goes as a voice note; audio sent before cannot become one and is reported.
 */
import type { ReceiptMessage } from "../adapter/types.js";
import type { ReplyPayload } from "../payload/types.js";
import type { PartDegradation } from "../plan/types.js";
import type { WrittenTags } from "./written-tags.js";

/** The voice bookkeeping of one run. */
export interface RunVoice {
  /** The run read these tags (of the text written so far, or of a delivery's payload). */
  read(tags: WrittenTags): void;
  /** `payload` with the run's voice wish. */
  step(payload: ReplyPayload): ReplyPayload;
  /** Messages of the run went out. */
  delivered(messages: readonly ReceiptMessage[]): void;
}

/**
 * Create the voice wish of one run. Audio files the run sent before it read the tag are
 * reported to `degrade` as `voice` → `audio` degradations (their `part` in the run) once it
 * does.
 */
export function createRunVoice(degrade: (entries: PartDegradation[]) => void): RunVoice {
  let wished = false;
  /** Audio files sent before the run read the tag. */
  let early: ReceiptMessage[] = [];
  return {
    read(tags) {
      if (!tags.audioAsVoice || wished) return;
      wished = true;
      if (early.length > 0)
        degrade(
          early.map((message) => ({
            part: message.part,
            from: "voice",
            to: "audio",
            reason: `message ${message.id} went out as an audio file before the agent wrote [[audio_as_voice]]; a sent file cannot become a voice note`,
          })),
        );
      early = [];
    },
    step(payload) {
      return wished && !payload.audioAsVoice ? { ...payload, audioAsVoice: true } : payload;
    },
    delivered(messages) {
      if (!wished) early.push(...messages.filter((message) => message.kind === "audio"));
    },
  };
}
