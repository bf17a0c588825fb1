/**
 * The Discord transport: one Create Message per operation through @discordjs/rest, errors
 * mapped onto core's classes. It never retries or sleeps: the engine does, and since every
 * Create Message carries the operation's key as an enforced nonce, the engine may resend one
 * that failed ambiguously (`deduplicatesByKey`).
 */
import type {
  AlbumOperation,
  LoadedMedia,
  MediaOperation,
  SentMessage,
  TextOperation,
  Transport,
} from "@outbox/core";
import type { DiscordAllowedMentions, DiscordRestLike } from "../types.js";
import { deleteMessage, editMessage } from "./edit-message.js";
import type { FilePart } from "./multipart.js";
import { ChannelResolver } from "./placement.js";
import { type PostContext, postMessage } from "./post-message.js";
import { RateLimitHeaders } from "./rate-limit-headers.js";
import { sendVoice } from "./send-voice.js";

/**
 * How long Discord is taken to remember an enforced nonce: its docs say "the past few
 * minutes" without a figure, so one minute, leaving room for a resend's pacing wait.
 */
const NONCE_REMEMBERED_MS = 60_000;

/** Options of {@link createDiscordTransport}. */
export interface DiscordTransportOptions {
  /** Who a message may ping. Default `{ parse: [] }`. */
  allowedMentions?: DiscordAllowedMentions;
}

/** A media item as a multipart file part (re-opened from its source on every attempt). */
export function filePart(media: LoadedMedia): FilePart {
  return { name: media.fileName, contentType: media.mimeType, open: () => media.open() };
}

/** Build the transport over a REST client. */
export function createDiscordTransport(
  rest: DiscordRestLike,
  options: DiscordTransportOptions = {},
): Transport {
  const ctx: PostContext = {
    rest,
    channels: new ChannelResolver(rest),
    allowedMentions: options.allowedMentions ?? { parse: [] },
    rateLimits: new RateLimitHeaders(rest),
  };
  return {
    sendText: (op: TextOperation): Promise<SentMessage> => postMessage(ctx, op, { content: op.text.text }),
    sendMedia: (op: MediaOperation): Promise<SentMessage> => {
      if (op.kind === "voice") return sendVoice(ctx, op);
      return postMessage(
        ctx,
        op,
        {
          ...(op.caption ? { content: op.caption.text } : {}),
          attachments: [{ id: 0, filename: op.media.fileName }],
        },
        [filePart(op.media)],
      );
    },
    sendAlbum: (op: AlbumOperation): Promise<SentMessage> =>
      postMessage(
        ctx,
        op,
        {
          ...(op.caption ? { content: op.caption.text } : {}),
          attachments: op.items.map((item, id) => ({ id, filename: item.media.fileName })),
        },
        op.items.map((item) => filePart(item.media)),
      ),
    editText: (op) => editMessage(ctx, op),
    deleteMessage: (op) => deleteMessage(ctx, op),
    deduplicatesByKey: true,
    deduplicatesForMs: NONCE_REMEMBERED_MS,
  };
}
