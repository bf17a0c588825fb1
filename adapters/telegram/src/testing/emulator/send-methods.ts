/**
 * The send methods: sendMessage, sendPhoto/Animation/Video/Audio/Voice/Document and
 * sendMediaGroup, validated as strictly as Telegram and recorded as observations.
 */
import { ApiError, badRequest } from "./api-error.js";
import { type ApiRequest, objectParam } from "./body.js";
import { type Chats, type Message, mediaContent, type Placement } from "./chats.js";
import { EntityParseError, type ParsedText, parseTelegramHtml } from "./html-entities.js";
import { parseLegacyMarkdown, parseMarkdownV2 } from "./markdown-entities.js";
import { directUpload, type MediaContext, type MediaField, resolveMedia, type StoredFile } from "./media.js";
import type { Observations } from "./observations.js";
import { observedFormatting, observedMentions } from "./observed-formatting.js";
import type { ObservedMessage } from "./types.js";

/** What a handler needs from the emulator. */
export interface HandlerContext {
  /** Chats and messages. */
  chats: Chats;
  /** Media resolution for this request. */
  media: MediaContext;
  /** Take a message from the flood limits, or the seconds to wait. */
  flood: (chatId: number) => number | undefined;
  /** What the chats show (sends record, edits and deletes revise). */
  observations: Observations;
}

/** A Bot API method. */
export type Handler = (req: ApiRequest, ctx: HandlerContext) => Promise<unknown>;

/** Most characters of a text message, after entity parsing. */
export const TEXT_LIMIT = 4096;
const CAPTION_LIMIT = 1024;
const OBSERVED_KIND: Record<MediaField, ObservedMessage["kind"]> = {
  photo: "image",
  animation: "animation",
  video: "video",
  audio: "audio",
  voice: "voice",
  document: "document",
};
const GROUP_OF: Record<string, string> = {
  photo: "visual",
  video: "visual",
  document: "document",
  audio: "audio",
};

/** parse_mode values Telegram accepts (case-insensitive), each with its strict parser. */
const PARSERS: Record<string, (source: string) => ParsedText> = {
  html: parseTelegramHtml,
  markdownv2: parseMarkdownV2,
  markdown: parseLegacyMarkdown,
};

/** Text as Telegram parses it (`parse_mode` HTML, MarkdownV2, Markdown or none); `undefined` when empty. */
export function parseText(raw: unknown, parseMode: unknown): ParsedText | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  const source = String(raw);
  if (parseMode === undefined || parseMode === null || parseMode === "")
    return { text: source, entities: [] };
  const parse = PARSERS[String(parseMode).toLowerCase()];
  if (!parse) throw badRequest("unsupported parse_mode");
  try {
    return parse(source);
  } catch (error) {
    if (error instanceof EntityParseError) throw badRequest(`can't parse entities: ${error.message}`);
    throw error;
  }
}

function caption(raw: unknown, parseMode: unknown): ParsedText | undefined {
  const parsed = parseText(raw, parseMode);
  if (parsed && parsed.text.length > CAPTION_LIMIT) throw badRequest("message caption is too long");
  return parsed;
}

function captionContent(parsed: ParsedText | undefined): Record<string, unknown> {
  if (!parsed || parsed.text === "") return {};
  return parsed.entities.length > 0
    ? { caption: parsed.text, caption_entities: parsed.entities }
    : { caption: parsed.text };
}

/** `formatting` and `mentions` of an observation: the spans of parsed text and whom it notifies, each left out when none. */
export function formattingField(
  parsed: ParsedText | undefined,
): Pick<ObservedMessage, "formatting" | "mentions"> {
  const formatting = observedFormatting(parsed?.entities ?? []);
  const mentions = observedMentions(parsed?.entities ?? []);
  return { ...(formatting.length > 0 ? { formatting } : {}), ...(mentions ? { mentions } : {}) };
}

/** Visible caption and its spans, as an observation carries them (nothing when empty). */
function captionFields(parsed: ParsedText | undefined): Pick<ObservedMessage, "caption" | "formatting"> {
  return parsed?.text ? { caption: parsed.text, ...formattingField(parsed) } : {};
}

function placementFields(placement: Placement): Pick<ObservedMessage, "replyTo" | "thread"> {
  return {
    ...(placement.replyTo ? { replyTo: String(placement.replyTo.message_id) } : {}),
    ...(placement.thread !== undefined ? { thread: String(placement.thread) } : {}),
  };
}

function fileFields(file: StoredFile): Pick<ObservedMessage, "fileName" | "mimeType" | "sha256" | "bytes"> {
  return { fileName: file.fileName, mimeType: file.mimeType, sha256: file.sha256, bytes: file.size };
}

/** Take one message from the flood limits of a chat, or answer Telegram's 429. */
export function takeFlood(ctx: HandlerContext, chatId: number): void {
  const wait = ctx.flood(chatId);
  if (wait !== undefined) {
    throw new ApiError(429, `Too Many Requests: retry after ${wait}`, { retry_after: wait });
  }
}

const sendMessage: Handler = async ({ params }, ctx) => {
  const placement = ctx.chats.place(params);
  const parsed = parseText(params.text, params.parse_mode);
  if (!parsed || parsed.text.trim() === "") throw badRequest("message text is empty");
  if (parsed.text.length > TEXT_LIMIT) throw badRequest("message is too long");
  takeFlood(ctx, placement.chatId);
  const content =
    parsed.entities.length > 0 ? { text: parsed.text, entities: parsed.entities } : { text: parsed.text };
  const message = ctx.chats.commit(placement, content);
  ctx.observations.record(placement.chatId, [message.message_id], {
    kind: "text",
    text: parsed.text,
    ...formattingField(parsed),
    ...placementFields(placement),
  });
  return message;
};

function sendFile(field: MediaField): Handler {
  return async ({ params, files }, ctx) => {
    const placement = ctx.chats.place(params);
    const parsed = caption(params.caption, params.parse_mode);
    const file = await resolveMedia(params[field] ?? directUpload(field, files), field, ctx.media);
    takeFlood(ctx, placement.chatId);
    const message = ctx.chats.commit(placement, { ...mediaContent(field, file), ...captionContent(parsed) });
    ctx.observations.record(placement.chatId, [message.message_id], {
      kind: OBSERVED_KIND[field],
      ...captionFields(parsed),
      ...fileFields(file),
      ...placementFields(placement),
    });
    return message;
  };
}

interface GroupItem {
  type: MediaField;
  media: unknown;
  caption?: unknown;
  parse_mode?: unknown;
}

function groupItems(params: Record<string, unknown>): GroupItem[] {
  const media = objectParam(params, "media");
  if (!Array.isArray(media)) throw badRequest("can't parse media JSON object");
  if (media.length < 2 || media.length > 10)
    throw badRequest("wrong number of media in the group: must be 2-10");
  const items = media as GroupItem[];
  const groups = new Set<string>();
  for (const item of items) {
    const group = GROUP_OF[String(item?.type)];
    if (!group)
      throw badRequest(
        `can't parse InputMedia: media type "${String(item?.type)}" can't be used in a media group`,
      );
    groups.add(group);
  }
  if (groups.size > 1) {
    const odd = groups.has("document") ? "document" : "audio";
    throw badRequest(`${odd} can't be mixed with other media types`);
  }
  return items;
}

const sendMediaGroup: Handler = async ({ params }, ctx) => {
  const placement = ctx.chats.place(params);
  const items = groupItems(params);
  const captions = items.map((item) => caption(item.caption, item.parse_mode));
  const resolved: StoredFile[] = [];
  for (const item of items) resolved.push(await resolveMedia(item.media, item.type, ctx.media));
  takeFlood(ctx, placement.chatId);
  const groupId = String(Date.now());
  const messages: Message[] = items.map((item, index) =>
    ctx.chats.commit(placement, {
      media_group_id: groupId,
      ...mediaContent(item.type, resolved[index]!),
      ...captionContent(captions[index]),
    }),
  );
  const observedItems: ObservedMessage[] = items.map((item, index) => ({
    kind: OBSERVED_KIND[item.type],
    ...captionFields(captions[index]),
    ...fileFields(resolved[index]!),
  }));
  ctx.observations.record(
    placement.chatId,
    messages.map((m) => m.message_id),
    {
      kind: "album",
      ...captionFields(captions.find((parsed) => parsed?.text)),
      items: observedItems,
      ...placementFields(placement),
    },
  );
  return messages;
};

/** Send methods by lower-case name (Bot API method names are case-insensitive). */
export const SEND_METHODS: Record<string, Handler> = {
  sendmessage: sendMessage,
  sendphoto: sendFile("photo"),
  sendanimation: sendFile("animation"),
  sendvideo: sendFile("video"),
  sendaudio: sendFile("audio"),
  sendvoice: sendFile("voice"),
  senddocument: sendFile("document"),
  sendmediagroup: sendMediaGroup,
};
