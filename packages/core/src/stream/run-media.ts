/**
 * Media bookkeeping of an agent run beyond what `createDeliveryTurn` holds: inline tool
 * media (attachments, which the turn does not queue) and what a stopped run leaves behind.
 */
import type { UndeliveredOutput } from "../errors/errors.js";
import { redactSecrets } from "../errors/redact.js";
import { neutralizeMediaDirectives } from "../parse/neutralize.js";
import { distinctAttachments } from "../parse/normalize-payload.js";
import { parseReply } from "../parse/parse-reply.js";
import type { MediaAttachment, ParseOptions, ReplyPayload } from "../payload/types.js";
import type { AgentMedia, AgentToolResultEvent } from "./agent-event.js";

/** References and inline items of a runtime's media list. */
export function splitMedia(media: AgentMedia | undefined): { refs: string[]; items: MediaAttachment[] } {
  const refs: string[] = [];
  const items: MediaAttachment[] = [];
  for (const entry of (media ?? []) as Array<string | MediaAttachment>)
    if (typeof entry === "string") refs.push(entry);
    else items.push(entry);
  return { refs, items };
}

/**
 * `payload` with queued inline tool media appended, except items whose file or source URL
 * the payload already names (same media identity) and repeats of one.
 */
export function withToolItems(
  payload: ReplyPayload,
  items: readonly MediaAttachment[],
  workspaceDir: string | undefined,
): ReplyPayload {
  if (items.length === 0) return payload;
  return {
    ...payload,
    media: distinctAttachments([...payload.media, ...items], payload.mediaUrls, workspaceDir),
  };
}

/** What a stopped run leaves undelivered: an unfinished text and the media not sent. */
export function undeliveredOf(text: string, rest: ReplyPayload | null): UndeliveredOutput {
  return {
    text: redactSecrets(text),
    mediaUrls: (rest?.mediaUrls ?? []).map((ref) => redactSecrets(ref)),
    media: rest?.media.length ?? 0,
  };
}

/** What a tool result gives the run: its media, its voice wish and its text as shown to integrators. */
export interface ToolOutput {
  /** Media references (structured, then `MEDIA:` lines of trusted text). */
  refs: string[];
  /** Inline media items. */
  items: MediaAttachment[];
  /** Present its audio as a voice note (the event's flag, or an `[[audio_as_voice]]` tag in trusted text). */
  audioAsVoice: boolean;
  /** The text, neutralized when untrusted. */
  text: string | undefined;
}

/**
 * Read a tool result. Trusted text is parsed like a reply (`MEDIA:` lines and
 * `[[audio_as_voice]]` count); untrusted text is neutralized and gives no media.
 */
export function toolOutput(
  event: AgentToolResultEvent,
  untrusted: boolean,
  options: ParseOptions,
): ToolOutput {
  const { refs, items } = splitMedia(event.media);
  let audioAsVoice = event.audioAsVoice === true;
  if (event.text === undefined) return { refs, items, audioAsVoice, text: undefined };
  if (untrusted) return { refs, items, audioAsVoice, text: neutralizeMediaDirectives(event.text) };
  const parsed = parseReply(event.text, options);
  audioAsVoice ||= parsed.audioAsVoice;
  return { refs: [...refs, ...parsed.mediaUrls], items, audioAsVoice, text: event.text };
}
