/**
 * The Web API methods the adapter uses, as strict as Slack: `chat.postMessage`,
 * `conversations.open`, `files.getUploadURLExternal`, `files.completeUploadExternal`,
 * `files.info` and `auth.test` (Bolt calls it when an App starts).
 */
import { json, str } from "./body.js";
import { SlackApiError } from "./errors.js";
import { MARKDOWN_TEXT_LIMIT } from "./markdown-text.js";
import type { RateLimits } from "./rate-limits.js";
import type { StoredFile, StoredMessage } from "./types.js";
import type { Workspace } from "./workspace.js";

/** What a handler works with. */
export interface MethodContext {
  /** The workspace. */
  ws: Workspace;
  /** Enforced rate limits, unless off. */
  limits?: RateLimits;
  /** The upload URL of a file (points back at the emulator). */
  uploadUrl(file: StoredFile): string;
  /** Shares still to be withheld (Slack shares files asynchronously). */
  pendingShares: { left: number };
}

/** A method: arguments in, the `ok:true` envelope's fields out. */
export type Method = (args: Record<string, unknown>, ctx: MethodContext) => Record<string, unknown>;

/** Methods by name, with the scope each needs. */
export const METHODS: Record<string, { scope?: string; run: Method }> = {
  "auth.test": {
    run: () => ({
      url: "https://outbox-emulator.slack.com/",
      team: "Outbox",
      user: "outbox",
      team_id: "T0OUTBOX",
      user_id: "U0BOT",
      bot_id: "B0BOT",
    }),
  },
  "chat.postMessage": { scope: "chat:write", run: postMessage },
  "conversations.open": { scope: "im:write", run: openConversation },
  "files.getUploadURLExternal": { scope: "files:write", run: getUploadUrl },
  "files.completeUploadExternal": { scope: "files:write", run: completeUpload },
  "files.info": { scope: "files:read", run: fileInfo },
};

function postMessage(args: Record<string, unknown>, ctx: MethodContext) {
  const { ws, limits } = ctx;
  const channel = ws.postable(str(args, "channel"));
  const threadTs = ws.thread(channel, str(args, "thread_ts"));
  const text = str(args, "text") ?? "";
  const markdown = str(args, "markdown_text");
  if (markdown !== undefined) return postMarkdown(channel, threadTs, markdown, text, args, ctx);
  if (text === "" && args.blocks === undefined && args.attachments === undefined)
    throw new SlackApiError("no_text");
  ws.checkText(text, "text");
  limits?.message(channel);
  const stored = ws.post({ channel, text, files: [], ...(threadTs === undefined ? {} : { threadTs }) });
  return { channel, ts: stored.ts, message: messageObject(stored) };
}

/** `markdown_text`: standard Markdown, alone (not with `text` or `blocks`), up to 12,000 characters. */
function postMarkdown(
  channel: string,
  threadTs: string | undefined,
  markdown: string,
  text: string,
  args: Record<string, unknown>,
  { ws, limits }: MethodContext,
) {
  if (text !== "" || args.blocks !== undefined)
    throw new SlackApiError("invalid_arguments", [
      "[ERROR] markdown_text cannot be used with text or blocks",
    ]);
  if (markdown.length > MARKDOWN_TEXT_LIMIT) throw new SlackApiError("markdown_text_too_long");
  limits?.message(channel);
  const stored = ws.post({
    channel,
    text: "",
    markdown,
    files: [],
    ...(threadTs === undefined ? {} : { threadTs }),
  });
  return { channel, ts: stored.ts, message: messageObject(stored) };
}

function openConversation(args: Record<string, unknown>, { ws }: MethodContext) {
  const users = str(args, "users")?.split(",") ?? [];
  if (users.length !== 1)
    throw new SlackApiError(users.length === 0 ? "users_list_not_supplied" : "not_enough_users");
  const user = users[0] as string;
  if (!ws.users.has(user)) throw new SlackApiError("user_not_found");
  const id = `D${user.slice(1)}`;
  if (!ws.conversations.has(id)) ws.add({ id });
  return { channel: { id } };
}

function getUploadUrl(args: Record<string, unknown>, ctx: MethodContext) {
  const fileName = str(args, "filename");
  const length = Number(str(args, "length"));
  if (!fileName) throw new SlackApiError("invalid_arguments", ["[ERROR] missing required field: filename"]);
  if (!Number.isInteger(length) || length <= 0)
    throw new SlackApiError("invalid_arguments", ["[ERROR] length must be a positive integer"]);
  ctx.limits?.files();
  const file: StoredFile = {
    id: `F${String(ctx.ws.files.size + 1).padStart(8, "0")}`,
    fileName,
    declared: length,
  };
  ctx.ws.files.set(file.id, file);
  return { upload_url: ctx.uploadUrl(file), file_id: file.id };
}

function completeUpload(args: Record<string, unknown>, ctx: MethodContext) {
  const { ws } = ctx;
  const list = json(args, "files");
  if (!Array.isArray(list) || list.length === 0)
    throw new SlackApiError("invalid_arguments", ["[ERROR] files must be a non-empty array"]);
  const files = list.map((entry: { id?: unknown; title?: unknown }) => {
    const file = ws.files.get(String(entry?.id));
    if (!file) throw new SlackApiError("file_not_found");
    if (!file.upload) throw new SlackApiError("file_upload_failed");
    if (typeof entry.title === "string") file.title = entry.title;
    return file;
  });
  const channelId = str(args, "channel_id");
  const comment = str(args, "initial_comment") ?? "";
  ctx.limits?.files();
  if (channelId === undefined) return { files: files.map((f) => fileObject(f, undefined, ctx)) };
  const channel = ws.postable(channelId);
  const threadTs = ws.thread(channel, str(args, "thread_ts"));
  ws.checkText(comment, "initial_comment");
  const stored = ws.post({ channel, text: comment, files, ...(threadTs === undefined ? {} : { threadTs }) });
  return { files: files.map((f) => fileObject(f, stored, ctx)) };
}

function fileInfo(args: Record<string, unknown>, ctx: MethodContext) {
  const file = ctx.ws.files.get(str(args, "file") ?? "");
  if (!file) throw new SlackApiError("file_not_found");
  const share = ctx.ws.messages.find((m) => m.files.includes(file));
  return { file: fileObject(file, share, ctx) };
}

/** A message as the Web API returns it. */
export function messageObject(m: StoredMessage) {
  return {
    type: "message",
    text: m.text,
    bot_id: "B0BOT",
    ts: m.ts,
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
  };
}

function fileObject(file: StoredFile, share: StoredMessage | undefined, ctx: MethodContext) {
  const base = {
    id: file.id,
    name: file.fileName,
    title: file.title ?? file.fileName,
    mimetype: file.upload?.mimeType ?? "application/octet-stream",
    size: file.upload?.bytes ?? 0,
  };
  if (share === undefined) return { ...base, shares: {} };
  if (ctx.pendingShares.left > 0) {
    ctx.pendingShares.left -= 1;
    return { ...base, shares: {} };
  }
  const visibility = share.channel.startsWith("C") ? "public" : "private";
  const entry = { ts: share.ts, ...(share.threadTs ? { thread_ts: share.threadTs } : {}) };
  return { ...base, shares: { [visibility]: { [share.channel]: [entry] } } };
}
