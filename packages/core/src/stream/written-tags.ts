/**
 * The reply and voice tags an agent has written so far in a run, read from the streamed
 * text as it grows. Each complete paragraph is parsed once and only the paragraph being
 * written is read again, so asking at every delivery keeps a long run's cost linear.
 */
import { parseReply } from "../parse/parse-reply.js";
import type { ReplyPayload } from "../payload/types.js";
import { findCuts } from "./block-splitter.js";

/** The tags of a text: its reply target (as `parseReply` resolves it) and its voice wish. */
export type WrittenTags = Pick<ReplyPayload, "replyToId" | "audioAsVoice">;

/** Reads the tags of one run's streamed text. */
export interface TagReader {
  /** The tags of `streamed`, the run's text so far (each call's text extends the previous one's). */
  read(streamed: string): WrittenTags;
}

/**
 * Create the tag reader of one run. As for a whole reply, the last `[[reply_to:<id>]]` wins
 * over `[[reply_to_current]]` (which names `currentMessageId`); tags in code do not count.
 */
export function createTagReader(currentMessageId: string | undefined): TagReader {
  /** Where the text not parsed yet starts: a paragraph boundary outside fences. */
  let offset = 0;
  let explicit: string | undefined;
  let current = false;
  let voice = false;
  const parse = (text: string) => parseReply(text, { media: "ignore" });
  return {
    read(streamed) {
      let open = streamed.slice(offset);
      const cut = open.includes("\n") ? (findCuts(open).breaks.at(-1) ?? 0) : 0;
      if (cut > 0) {
        const done = parse(open.slice(0, cut));
        explicit = done.replyToId ?? explicit;
        current ||= done.replyToCurrent;
        voice ||= done.audioAsVoice;
        offset += cut;
        open = open.slice(cut);
      }
      const tail = parse(open);
      const replyToId =
        tail.replyToId ?? explicit ?? (current || tail.replyToCurrent ? currentMessageId : undefined);
      return { ...(replyToId === undefined ? {} : { replyToId }), audioAsVoice: voice || tail.audioAsVoice };
    },
  };
}
