/** What `send_message` takes: the only names a text the tool returns may tell an agent to use. */
export const TOOL_ARGUMENTS: readonly string[] = [
  "platform",
  "to",
  "thread",
  "replyTo",
  "message",
  "images",
  "files",
  "voice",
  "idempotencyKey",
  "ambiguous",
];
