/**
 * Edit Message (`PATCH /channels/{id}/messages/{id}`) and Delete Message as Discord validates
 * them: 10008 Unknown Message, 50005 for another user's message, the content rules of Create
 * Message, 50162 for a voice message; an accepted edit becomes a revision of the observation.
 */

import { mergeMentions } from "@outbox/core/testing";
import { DiscordApiError, invalidFormBody } from "./api-error.js";
import type { RequestBody } from "./body.js";
import { checkMentions, IS_VOICE_MESSAGE, MAX_CONTENT } from "./create-message.js";
import { decodeDiscordMarkdown } from "./markdown.js";
import { discordMentions } from "./mentions.js";
import type { DiscordStore, StoredMessage } from "./store.js";

/** Validate and apply an edit; returns Discord's message object. */
export function editMessage(
  store: DiscordStore,
  channelId: string,
  messageId: string,
  body: RequestBody,
): Record<string, unknown> {
  const message = existing(store, channelId, messageId);
  if (!message.fromBot)
    throw new DiscordApiError(403, 50005, "Cannot edit a message authored by another user");
  const { json } = body;
  if (body.files.size > 0)
    throw new DiscordApiError(400, 0, "the emulator does not take files on Edit Message");
  const content = json.content;
  if (content !== undefined && content !== null && typeof content !== "string")
    throw invalidFormBody("content", "BASE_TYPE_BAD_TYPE", "Must be a string.");
  const previous = typeof message.payload?.content === "string" ? message.payload.content : "";
  // PATCH changes only the fields it names: absent content stays, null clears it.
  const text = content === undefined ? previous : (content ?? "");
  if (text.length > MAX_CONTENT)
    throw invalidFormBody("content", "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_CONTENT} or fewer in length.`);
  checkMentions(json.allowed_mentions);
  const flags = typeof message.payload?.flags === "number" ? message.payload.flags : 0;
  if ((flags & IS_VOICE_MESSAGE) !== 0)
    throw new DiscordApiError(400, 50162, "Voice messages cannot be edited");
  const attachments = (message.answer?.attachments as unknown[] | undefined) ?? [];
  if (text.trim() === "" && attachments.length === 0)
    throw new DiscordApiError(400, 50006, "Cannot send an empty message");
  message.payload = { ...message.payload, content: text };
  if (message.observed) message.observed = revise(message.observed, text, json.allowed_mentions);
  message.answer = { ...message.answer, content: text, edited_timestamp: new Date().toISOString() };
  return message.answer;
}

/** Validate and apply a delete (another user's message: 50003 in a DM, else 50013). */
export function deleteMessage(store: DiscordStore, channelId: string, messageId: string): void {
  const message = existing(store, channelId, messageId);
  if (!message.fromBot) {
    if (store.channel(channelId).type === "dm")
      throw new DiscordApiError(403, 50003, "Cannot execute action on a DM channel");
    throw new DiscordApiError(403, 50013, "Missing Permissions");
  }
  store.remove(message);
}

function existing(store: DiscordStore, channelId: string, messageId: string): StoredMessage {
  const message = store.message(channelId, messageId);
  if (!message) throw new DiscordApiError(404, 10008, "Unknown Message");
  return message;
}

/**
 * The observation after an edit: new text (or caption) and spans; the shown text becomes a
 * revision; whom the new content pings adds to whom the message pinged.
 */
function revise(observed: NonNullable<StoredMessage["observed"]>, text: string, allowedMentions: unknown) {
  const {
    formatting: _old,
    mentions: before,
    revisions = [],
    text: shownText,
    caption: shownCaption,
    ...rest
  } = observed;
  const mentions = mergeMentions(before, discordMentions(text, allowedMentions));
  const decoded = text === "" ? { text: "", formatting: [] } : decodeDiscordMarkdown(text);
  const field = observed.kind === "text" ? "text" : "caption";
  const shown = (field === "text" ? shownText : shownCaption) ?? "";
  return {
    ...rest,
    ...(field === "text" ? { text: decoded.text } : decoded.text === "" ? {} : { caption: decoded.text }),
    ...(decoded.formatting.length > 0 ? { formatting: decoded.formatting } : {}),
    ...(mentions ? { mentions } : {}),
    revisions: [...revisions, shown],
  };
}
