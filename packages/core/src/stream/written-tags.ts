/**
 * The reply and voice tags an agent has written in a run's text, read as the text grows
 * without reading a long reply again and again.
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

/** Tags found in a text: the last `[[reply_to:<id>]]`, whether `[[reply_to_current]]` and `[[audio_as_voice]]` appear. */
interface Found {
  explicit: string | undefined;
  current: boolean;
  voice: boolean;
}

function find(text: string): Found {
  const parsed = parseReply(text, { media: "ignore" });
  return { explicit: parsed.replyToId, current: parsed.replyToCurrent, voice: parsed.audioAsVoice };
}

/** As for a whole reply: the last `[[reply_to:<id>]]` wins over `[[reply_to_current]]`, which names `currentMessageId`. */
function resolve(found: Found, currentMessageId: string | undefined): WrittenTags {
  const replyToId = found.explicit ?? (found.current ? currentMessageId : undefined);
  return { ...(replyToId === undefined ? {} : { replyToId }), audioAsVoice: found.voice };
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
  return resolve(find(text), currentMessageId);
}

/**
 * Create the tag reader of one run: each complete paragraph is parsed once, and the
 * paragraph being written only while it holds a `[[`; text without one is searched once.
 * The work of a read is the text added since the last one, plus the open paragraph when it
 * holds a `[[` (reads happen at deliveries, not per delta).
 */
export function createTagReader(currentMessageId: string | undefined): TagReader {
  /** Where the text not parsed yet starts: a paragraph boundary outside fences. */
  let offset = 0;
  /** The text from `offset` up to here holds no `[[`. */
  let searched = 0;
  const seen: Found = { explicit: undefined, current: false, voice: false };
  return {
    read(streamed) {
      if (streamed.indexOf("[[", Math.max(offset, searched - 1)) === -1) {
        searched = streamed.length;
        return resolve(seen, currentMessageId);
      }
      let open = streamed.slice(offset);
      const cut = findCuts(open).breaks.at(-1) ?? 0;
      if (cut > 0) {
        const done = find(open.slice(0, cut));
        seen.explicit = done.explicit ?? seen.explicit;
        seen.current ||= done.current;
        seen.voice ||= done.voice;
        offset += cut;
        open = open.slice(cut);
      }
      searched = offset;
      const tail = find(open);
      return resolve(
        {
          explicit: tail.explicit ?? seen.explicit,
          current: seen.current || tail.current,
          voice: seen.voice || tail.voice,
        },
        currentMessageId,
      );
    },
  };
}
