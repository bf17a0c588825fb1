/**
 * Create Message as Discord validates it: content length, attachments matching the file
 * parts (10 at most, each within the upload limit), flags, voice message rules, the reply
 * reference and `allowed_mentions`; an enforced `nonce` seen in the past few minutes returns
 * the message it created instead of a new one; the accepted message is stored and decoded.
 */
import { createHash } from "node:crypto";
import type { ObservedMessage } from "@outbox/core";
import { DiscordApiError, invalidFormBody } from "./api-error.js";
import type { RequestBody, UploadedFile } from "./body.js";
import { decodeDiscordMarkdown } from "./markdown.js";
import { discordMentions } from "./mentions.js";
import type { NonceLog } from "./nonces.js";
import type { DiscordStore } from "./store.js";

/** Most characters of `content`. */
export const MAX_CONTENT = 2000;
const MAX_ATTACHMENTS = 10;
/** The voice message flag. */
export const IS_VOICE_MESSAGE = 1 << 13;
/** Flags a bot may set on Create Message: SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2. */
const ALLOWED_FLAGS = (1 << 2) | (1 << 12) | IS_VOICE_MESSAGE | (1 << 15);
const MENTION_KINDS = new Set(["users", "roles", "everyone"]);

interface Attachment {
  id?: unknown;
  filename?: unknown;
  duration_secs?: unknown;
  waveform?: unknown;
}

/** Validate and store a bot message in `channelId`; returns Discord's message object. */
export function createMessage(
  store: DiscordStore,
  channelId: string,
  body: RequestBody,
  maxUploadBytes: number,
  nonces: NonceLog,
): Record<string, unknown> {
  const channel = store.channel(channelId);
  if (!channel.canSend) throw new DiscordApiError(403, 50013, "Missing Permissions");
  const { json, files } = body;
  const content = json.content;
  if (content !== undefined && content !== null && typeof content !== "string")
    throw invalidFormBody("content", "BASE_TYPE_BAD_TYPE", "Must be a string.");
  const text = typeof content === "string" ? content : "";
  if (text.length > MAX_CONTENT)
    throw invalidFormBody("content", "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_CONTENT} or fewer in length.`);
  const flags = typeof json.flags === "number" ? json.flags : 0;
  if ((flags & ~ALLOWED_FLAGS) !== 0) throw invalidFormBody("flags", "BASE_TYPE_CHOICES", "Invalid flags.");
  checkMentions(json.allowed_mentions);
  const uploads = attachmentsOf(json.attachments, files, maxUploadBytes);
  if (text.trim() === "" && uploads.length === 0)
    throw new DiscordApiError(400, 50006, "Cannot send an empty message");
  const voice = (flags & IS_VOICE_MESSAGE) !== 0;
  if (voice) checkVoice(text, uploads, channel.voiceMessages);

  const reference = replyReference(store, channelId, json.message_reference);
  const earlier = nonces.earlier(json);
  if (earlier !== undefined) return earlier;
  const id = store.snowflake();
  const thread = channel.type === "thread" ? channelId : undefined;
  const mentions = discordMentions(text, json.allowed_mentions);
  const observed = { ...observe(text, uploads, voice, reference, thread), ...(mentions ? { mentions } : {}) };
  const answer = {
    id,
    channel_id: channelId,
    type: reference ? 19 : 0,
    content: text,
    flags,
    author: { id: "1000000000000000001", username: "outbox-emulator", bot: true },
    attachments: uploads.map(({ entry, file }, index) => ({
      id: store.snowflake(),
      filename: file.name,
      size: file.data.length,
      content_type: file.contentType,
      url: `https://cdn.discordapp.invalid/attachments/${channelId}/${id}/${index}/${file.name}`,
      ...(voice ? { duration_secs: entry.duration_secs, waveform: entry.waveform } : {}),
    })),
    timestamp: new Date().toISOString(),
    ...(json.nonce !== undefined ? { nonce: json.nonce } : {}),
    ...(reference ? { message_reference: { type: 0, message_id: reference, channel_id: channelId } } : {}),
  };
  store.add({ id, channelId, fromBot: true, payload: json, observed, answer });
  nonces.remember(json, answer);
  return answer;
}

/** Refuse an `allowed_mentions` Discord would not parse (50035). */
export function checkMentions(value: unknown): void {
  if (value === undefined) return;
  const parse = (value as { parse?: unknown } | null)?.parse;
  if (typeof value !== "object" || value === null || (parse !== undefined && !Array.isArray(parse)))
    throw invalidFormBody("allowed_mentions", "MODEL_TYPE_CONVERT", "Invalid allowed_mentions.");
  for (const kind of (parse as unknown[] | undefined) ?? [])
    if (typeof kind !== "string" || !MENTION_KINDS.has(kind))
      throw invalidFormBody(
        "allowed_mentions.parse",
        "BASE_TYPE_CHOICES",
        `Value "${String(kind)}" is not valid.`,
      );
}

function attachmentsOf(
  value: unknown,
  files: Map<number, UploadedFile>,
  maxUploadBytes: number,
): Array<{ entry: Attachment; file: UploadedFile }> {
  if (files.size > MAX_ATTACHMENTS)
    throw invalidFormBody("files", "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_ATTACHMENTS} or fewer in length.`);
  const entries = Array.isArray(value) ? (value as Attachment[]) : [];
  if (entries.length > MAX_ATTACHMENTS)
    throw invalidFormBody(
      "attachments",
      "BASE_TYPE_MAX_LENGTH",
      `Must be ${MAX_ATTACHMENTS} or fewer in length.`,
    );
  for (const file of files.values())
    if (file.data.length > maxUploadBytes) throw new DiscordApiError(413, 40005, "Request entity too large");
  const used = new Set<number>();
  const out = entries.map((entry, index) => {
    const id = Number(entry.id);
    const file = files.get(id);
    if (!Number.isInteger(id) || file === undefined)
      throw invalidFormBody(`attachments.${index}.id`, "ATTACHMENT_NOT_FOUND", "Attachment data not found");
    used.add(id);
    return { entry, file };
  });
  // Files without an attachments entry are still attached, in part order.
  for (const [id, file] of [...files].sort(([a], [b]) => a - b))
    if (!used.has(id)) out.push({ entry: { id }, file });
  return out;
}

function checkVoice(
  text: string,
  uploads: Array<{ entry: Attachment; file: UploadedFile }>,
  allowed: boolean,
): void {
  if (!allowed) throw new DiscordApiError(403, 50173, "You cannot send voice messages in this channel");
  if (text !== "") throw new DiscordApiError(400, 50159, "Voice messages do not support additional content");
  const only = uploads[0];
  if (uploads.length !== 1 || only === undefined || !only.file.contentType.startsWith("audio/ogg"))
    throw new DiscordApiError(400, 50160, "Voice messages must have a single audio attachment");
  const { duration_secs: duration, waveform } = only.entry;
  const samples = typeof waveform === "string" ? Buffer.from(waveform, "base64") : undefined;
  if (
    typeof duration !== "number" ||
    !(duration > 0) ||
    samples === undefined ||
    samples.length === 0 ||
    samples.length > 256
  )
    throw new DiscordApiError(400, 50161, "Voice messages must have supporting metadata");
}

function replyReference(store: DiscordStore, channelId: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const { message_id: id, fail_if_not_exists: fail = true } = value as {
    message_id?: unknown;
    fail_if_not_exists?: unknown;
  };
  if (typeof id !== "string" && typeof id !== "number")
    throw invalidFormBody("message_reference.message_id", "BASE_TYPE_REQUIRED", "This field is required");
  if (store.message(channelId, String(id))) return String(id);
  if (fail === false) return undefined;
  throw invalidFormBody("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message");
}

function kindOf(type: string): ObservedMessage["kind"] {
  if (type === "image/gif") return "animation";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("video/")) return "video";
  if (type.startsWith("audio/")) return "audio";
  return "document";
}

function observe(
  text: string,
  uploads: Array<{ file: UploadedFile }>,
  voice: boolean,
  replyTo: string | undefined,
  thread: string | undefined,
): ObservedMessage {
  const decoded = text === "" ? undefined : decodeDiscordMarkdown(text);
  const place = { ...(replyTo ? { replyTo } : {}), ...(thread ? { thread } : {}) };
  const formatting = decoded && decoded.formatting.length > 0 ? { formatting: decoded.formatting } : {};
  if (uploads.length === 0) return { kind: "text", text: decoded?.text ?? "", ...formatting, ...place };
  const items = uploads.map(
    ({ file }): ObservedMessage => ({
      kind: voice ? "voice" : kindOf(file.contentType),
      fileName: file.name,
      mimeType: file.contentType,
      sha256: createHash("sha256").update(file.data).digest("hex"),
      bytes: file.data.length,
    }),
  );
  const caption = decoded ? { caption: decoded.text, ...formatting } : {};
  if (items.length === 1) return { ...(items[0] as ObservedMessage), ...caption, ...place };
  return { kind: "album", items, ...caption, ...place };
}
