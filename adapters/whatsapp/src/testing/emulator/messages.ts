/**
 * `POST /{phone-number-id}/messages` as strict as the Cloud API: `messaging_product`,
 * `to` (allowed list of a test number, 131030), the 24-hour window (131047), `text.body` up
 * to 4,096 characters, media by uploaded `id` checked against the message type's MIME
 * types and size (131053) or by an https `link` (recorded, never fetched), captions up to 1,024 characters on image, video and document
 * only, `voice` on Ogg/Opus audio only, `context.message_id` (an unknown id drops the quote),
 * then throughput and pair rate (429). Where Meta does not say which code a wrong parameter
 * gets, the emulator answers 100 naming it, and refuses parameters it does not know.
 */
import type { Conversations } from "./conversations.js";
import { GraphApiError, invalidParameter } from "./graph-error.js";
import { MEDIA_RULES, VOICE_TYPE } from "./media-types.js";
import type { RateLimits } from "./rate-limits.js";
import type { StoredMedia, StoredMessage } from "./types.js";

/** Text body limit ("maximum 4096 characters"), counted in UTF-16 units: the stricter reading. */
export const BODY_LIMIT = 4096;
/** Caption limit ("maximum 1024 characters"). */
export const CAPTION_LIMIT = 1024;

const TOP_LEVEL = new Set([
  "messaging_product",
  "recipient_type",
  "to",
  "type",
  "context",
  "biz_opaque_callback_data",
]);
const MEDIA_KEYS: Record<string, string[]> = {
  image: ["id", "link", "caption"],
  video: ["id", "link", "caption"],
  document: ["id", "link", "caption", "filename"],
  audio: ["id", "link", "voice"],
};

/** Validate, pace and store one message; returns Graph's answer. */
export function postMessage(body: Record<string, unknown>, ws: Conversations, limits?: RateLimits) {
  for (const key of Object.keys(body))
    if (!TOP_LEVEL.has(key) && key !== body.type)
      throw invalidParameter(`Param ${key} is not a valid parameter.`);
  if (body.messaging_product !== "whatsapp")
    throw invalidParameter("The parameter messaging_product is required and must be whatsapp.");
  if (body.recipient_type !== undefined && body.recipient_type !== "individual")
    throw invalidParameter("Param recipient_type must be individual.");
  const waId = ws.recipient(body.to);
  const type = body.type ?? "text";
  const message = type === "text" ? text(body.text) : media(String(type), body[String(type)], ws);
  ws.checkWindow(waId);
  const replyTo = ws.quoted(waId, context(body.context));
  limits?.message(waId);
  const stored = ws.store({ waId, ...message, ...(replyTo === undefined ? {} : { replyTo }) });
  return {
    messaging_product: "whatsapp",
    contacts: [{ input: body.to, wa_id: waId }],
    messages: [{ id: stored.id }],
  };
}

function context(value: unknown): unknown {
  if (value === undefined) return undefined;
  const id = (value as { message_id?: unknown } | null)?.message_id;
  if (typeof id !== "string" || id === "")
    throw invalidParameter("Param context['message_id'] must be a string.");
  return id;
}

function text(value: unknown): Pick<StoredMessage, "type" | "body"> {
  const object = record(value, "text");
  for (const key of Object.keys(object))
    if (key !== "body" && key !== "preview_url")
      throw invalidParameter(`Param text['${key}'] is not a valid parameter.`);
  if (typeof object.body !== "string" || object.body === "")
    throw invalidParameter("Param text['body'] is required.");
  if (object.body.length > BODY_LIMIT)
    throw invalidParameter(`Param text['body'] must be at most ${BODY_LIMIT} characters long.`);
  if (object.preview_url !== undefined && typeof object.preview_url !== "boolean")
    throw invalidParameter("Param text['preview_url'] must be a boolean.");
  return { type: "text", body: object.body };
}

function media(type: string, value: unknown, ws: Conversations): Omit<StoredMessage, "id" | "waId"> {
  const keys = MEDIA_KEYS[type];
  const rule = MEDIA_RULES[type];
  if (keys === undefined || rule === undefined)
    throw invalidParameter(
      `Param type must be one of text, image, video, audio, document (the emulator's subset); got ${type}.`,
    );
  const object = record(value, type);
  for (const key of Object.keys(object))
    if (!keys.includes(key)) throw invalidParameter(`Param ${type}['${key}'] is not a valid parameter.`);
  const source = object.link === undefined ? uploaded(type, rule, object, ws) : linked(type, object);
  const caption = object.caption;
  if (caption !== undefined && (typeof caption !== "string" || caption.length > CAPTION_LIMIT))
    throw invalidParameter(
      `Param ${type}['caption'] must be a string of at most ${CAPTION_LIMIT} characters.`,
    );
  if (object.filename !== undefined && typeof object.filename !== "string")
    throw invalidParameter("Param document['filename'] must be a string.");
  return {
    type,
    ...source,
    ...(typeof caption === "string" && caption !== "" ? { body: caption } : {}),
    ...(typeof object.filename === "string" ? { fileName: object.filename } : {}),
    ...(object.voice === true ? { voice: true } : {}),
  };
}

/** Media by uploaded id: checked against the message type's MIME types and size, and `voice` against Ogg/Opus. */
function uploaded(
  type: string,
  rule: { types: string[]; maxBytes: number },
  object: Record<string, unknown>,
  ws: Conversations,
): { media: StoredMedia } {
  const stored = typeof object.id === "string" ? ws.media.get(object.id) : undefined;
  if (stored === undefined)
    throw new GraphApiError(131053, "Media upload error", `Param ${type}['id'] names no uploaded media.`);
  const accepted = type === "document" ? [...rule.types, "image/jpeg", "image/png"] : rule.types;
  if (!accepted.includes(stored.mimeType))
    throw new GraphApiError(
      131053,
      "Media upload error",
      `${type} messages take ${accepted.join(", ")}; media ${stored.id} is ${stored.mimeType}.`,
    );
  if (stored.bytes > rule.maxBytes)
    throw new GraphApiError(
      131053,
      "Media upload error",
      `${type} messages take at most ${rule.maxBytes} bytes; media ${stored.id} has ${stored.bytes}.`,
    );
  if (object.voice !== undefined && (typeof object.voice !== "boolean" || stored.mimeType !== VOICE_TYPE))
    throw invalidParameter(
      `Param audio['voice'] is a boolean and needs Ogg/Opus audio; media ${stored.id} is ${stored.mimeType}.`,
    );
  return { media: stored };
}

/**
 * Media by `link`: either an id or a link (Meta: "Required if id is not used"), an absolute
 * https URL. The emulator records the link and never fetches it (tests must not reach the
 * network, and Meta fetches asynchronously: a link it cannot fetch is reported later in a
 * `failed` status webhook, not in this answer), so the type, size and `voice` rules that
 * need the bytes are not checked here; the adapter sends by link only what core's loader
 * already fetched the head of and checked.
 */
function linked(type: string, object: Record<string, unknown>): { link: string } {
  if (object.id !== undefined) throw invalidParameter(`Param ${type} takes either id or link, not both.`);
  let url: URL | undefined;
  try {
    url = typeof object.link === "string" ? new URL(object.link) : undefined;
  } catch {
    url = undefined;
  }
  if (url?.protocol !== "https:")
    throw invalidParameter(`Param ${type}['link'] must be an absolute https URL.`);
  if (object.voice !== undefined && typeof object.voice !== "boolean")
    throw invalidParameter("Param audio['voice'] must be a boolean.");
  return { link: object.link as string };
}

function record(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalidParameter(`Param ${name} must be an object.`);
  return value as Record<string, unknown>;
}
