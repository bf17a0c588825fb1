/**
 * Editing and deleting: `editMessageText` and `deleteMessage`, as strict as Telegram. Only
 * the bot's own text messages can be edited; an edit that changes nothing is refused with
 * "message is not modified"; an accepted edit counts in the chat's flood limits like a send
 * and becomes a revision of the observed message.
 */
import { badRequest } from "./api-error.js";
import type { Message } from "./chats.js";
import { formattingField, type Handler, parseText, TEXT_LIMIT, takeFlood } from "./send-methods.js";

/** Telegram's answer to an edit whose text and entities equal the current ones. */
export const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";

const editMessageText: Handler = async ({ params }, ctx) => {
  if (params.inline_message_id !== undefined) throw badRequest("inline messages are not emulated");
  const { chatId, message, fromBot } = ctx.chats.existing(params, "edit");
  const parsed = parseText(params.text, params.parse_mode);
  if (!parsed || parsed.text.trim() === "") throw badRequest("message text is empty");
  if (parsed.text.length > TEXT_LIMIT) throw badRequest("message is too long");
  if (!fromBot) throw badRequest("message can't be edited");
  if (typeof message.text !== "string") throw badRequest("there is no text in the message to edit");
  const entities = parsed.entities.length > 0 ? parsed.entities : undefined;
  if (message.text === parsed.text && sameEntities(message.entities, entities))
    throw badRequest(NOT_MODIFIED);
  takeFlood(ctx, chatId);
  const { entities: _old, ...kept } = message;
  const edited: Message = {
    ...kept,
    text: parsed.text,
    ...(entities ? { entities } : {}),
    edit_date: Math.floor(Date.now() / 1000),
  };
  ctx.observations.edit(chatId, message.message_id, parsed.text, formattingField(parsed));
  return ctx.chats.replace(chatId, edited);
};

const deleteMessage: Handler = async ({ params }, ctx) => {
  const { chatId, message, fromBot, type } = ctx.chats.existing(params, "delete");
  // A bot deletes its own messages anywhere, and the other side's in a private chat; in
  // groups others' messages need the can_delete_messages right, which the emulated bot lacks.
  if (!fromBot && type !== "private") throw badRequest("message can't be deleted for everyone");
  ctx.chats.remove(chatId, message.message_id);
  ctx.observations.remove(chatId, message.message_id);
  return true;
};

function sameEntities(current: unknown, next: unknown): boolean {
  return JSON.stringify(current ?? []) === JSON.stringify(next ?? []);
}

/** Edit methods by lower-case name. */
export const EDIT_METHODS: Record<string, Handler> = {
  editmessagetext: editMessageText,
  deletemessage: deleteMessage,
};
