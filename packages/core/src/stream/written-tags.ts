/**
 * The reply and voice tags an agent writes in a run's text (a run reads those of its whole
 * text from its model, run-text.ts; these are the tags of one piece of it).
 */
import { parseReply } from "../parse/parse-reply.js";
import type { ReplyPayload } from "../payload/types.js";

/**
 * The tags of a text: its reply target (as `parseReply` resolves it), whether it asks to reply
 * to the current message (`true` when `[[reply_to_current]]` appears, named or not), and its
 * voice wish.
 */
export type WrittenTags = Pick<ReplyPayload, "replyToId" | "audioAsVoice"> &
  Partial<Pick<ReplyPayload, "replyToCurrent">>;

/** Tags found in a text: the last `[[reply_to:<id>]]`, whether `[[reply_to_current]]` and `[[audio_as_voice]]` appear. */
export interface FoundTags {
  explicit: string | undefined;
  current: boolean;
  voice: boolean;
}

/** As for a whole reply: the last `[[reply_to:<id>]]` wins over `[[reply_to_current]]`, which names `currentMessageId`. */
export function resolveTags(found: FoundTags, currentMessageId: string | undefined): WrittenTags {
  const replyToId = found.explicit ?? (found.current ? currentMessageId : undefined);
  return {
    ...(replyToId === undefined ? {} : { replyToId }),
    ...(found.current ? { replyToCurrent: true } : {}),
    audioAsVoice: found.voice,
  };
}

/** The most characters a reply's opening tag is waited for (a tag naming a message id fits many times). */
const OPENING_TAG_LIMIT = 256;

/** A reply opening with nothing but whitespace, `[`, or a `[[` tag not closed yet on its first line. */
const OPENING_TAG = /^\s*(?:\[|\[\[(?:(?!\]\])[^\n])*)?$/;

/**
 * Whether `streamed`, the start of a reply, may still be a tag being written (`[[reply_`, the
 * first delta of a tag streamed token by token). Only short texts can be: past
 * {@link OPENING_TAG_LIMIT} characters the answer is no, so asking after every delta costs
 * no more than that.
 */
export function mayOpenWithTag(streamed: string): boolean {
  return streamed.length <= OPENING_TAG_LIMIT && OPENING_TAG.test(streamed);
}

/** The tags of `text` alone (tags in code do not count). */
export function tagsOf(text: string, currentMessageId: string | undefined): WrittenTags {
  const parsed = parseReply(text, { media: "ignore" });
  return resolveTags(
    { explicit: parsed.replyToId, current: parsed.replyToCurrent, voice: parsed.audioAsVoice },
    currentMessageId,
  );
}
