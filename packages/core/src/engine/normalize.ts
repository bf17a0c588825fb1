import * as parse from "../parse/index.js";
import type { ParseOptions, ReplyPayload, ReplyPayloadInput } from "../payload/types.js";

type Normalize = (input: ReplyPayloadInput, options?: ParseOptions) => ReplyPayload;

/**
 * TEMPORARY bridge until `normalizePayload` lands in parse/: use it when exported,
 * else take the structured fields as they are (no directive parsing).
 */
export const normalize: Normalize =
  (parse as unknown as { normalizePayload?: Normalize }).normalizePayload ??
  ((input) => ({
    text: input.text ?? "",
    mediaUrls: [...(input.mediaUrl === undefined ? [] : [input.mediaUrl]), ...(input.mediaUrls ?? [])],
    media: input.media ?? [],
    audioAsVoice: input.audioAsVoice === true,
    ...(input.replyToId === undefined ? {} : { replyToId: input.replyToId }),
    replyToCurrent: input.replyToCurrent === true,
    embeds: [],
  }));
