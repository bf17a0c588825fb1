/**
 * `chat.update` and `chat.delete`, as strict as Slack: only the app's own messages, the same
 * text rules as `chat.postMessage` (`no_text`, `msg_too_long`, `markdown_text` alone), Tier 3
 * rate limits per workspace. Slack accepts an update that changes nothing; it is recorded
 * like any other (a revision equal to the text).
 */
import { str } from "./body.js";
import { SlackApiError } from "./errors.js";
import { MARKDOWN_TEXT_LIMIT } from "./markdown-text.js";
import { type Method, type MethodContext, messageObject } from "./methods.js";

function update(args: Record<string, unknown>, { ws, limits }: MethodContext) {
  const channel = ws.postable(str(args, "channel"));
  const message = ws.find(channel, str(args, "ts"));
  const text = str(args, "text") ?? "";
  const markdown = str(args, "markdown_text");
  if (message.inbound) throw new SlackApiError("cant_update_message");
  if (markdown !== undefined) {
    if (text !== "" || args.blocks !== undefined)
      throw new SlackApiError("invalid_arguments", [
        "[ERROR] markdown_text cannot be used with text or blocks",
      ]);
    if (markdown.length > MARKDOWN_TEXT_LIMIT) throw new SlackApiError("markdown_text_too_long");
  } else if (text === "" && args.blocks === undefined && args.attachments === undefined)
    throw new SlackApiError("no_text");
  ws.checkText(text, "text");
  limits?.edit("chat.update");
  ws.update(message, text, markdown);
  return { channel, ts: message.ts, text: message.text, message: messageObject(message) };
}

function remove(args: Record<string, unknown>, { ws, limits }: MethodContext) {
  const channel = ws.postable(str(args, "channel"));
  const message = ws.find(channel, str(args, "ts"));
  if (message.inbound) throw new SlackApiError("cant_delete_message");
  limits?.edit("chat.delete");
  ws.remove(message);
  return { channel, ts: message.ts };
}

/** The editing methods by name, with the scope each needs. */
export const EDIT_METHODS: Record<string, { scope: string; run: Method }> = {
  "chat.update": { scope: "chat:write", run: update },
  "chat.delete": { scope: "chat:write", run: remove },
};
