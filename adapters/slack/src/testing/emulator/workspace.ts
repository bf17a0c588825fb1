/**
 * The emulated workspace: conversations, the messages they hold (raw, as stored), uploaded
 * files, and what a Slack client shows for each message (`ObservedMessage`).
 */
import type { ObservedMessage } from "@outbox/core";
import { SlackApiError } from "./errors.js";
import { decodeMarkdownText } from "./markdown-text.js";
import { decodeMrkdwn, mrkdwnMentions } from "./mrkdwn.js";
import { shownKind } from "./sniff.js";
import type { EmulatedConversation, StoredFile, StoredMessage } from "./types.js";

/** Slack's visible-text ceiling: longer `text` would be truncated, which the emulator refuses instead. */
export const TEXT_LIMIT = 40_000;

/** State of the emulated workspace. */
export class Workspace {
  /** Conversations by id. */
  readonly conversations = new Map<string, Required<EmulatedConversation>>();
  /** Every message, in order. */
  readonly messages: StoredMessage[] = [];
  /** Files by id, from `files.getUploadURLExternal` on. */
  readonly files = new Map<string, StoredFile>();
  private readonly byTs = new Map<string, StoredMessage>();
  private seq = 0;

  constructor(
    conversations: EmulatedConversation[],
    /** Users a DM can be opened with. */
    readonly users: Set<string>,
  ) {
    for (const c of conversations) this.add(c);
  }

  /** Make a conversation exist. */
  add(c: EmulatedConversation): void {
    this.conversations.set(c.id, { member: true, archived: false, ...c });
  }

  /** A conversation the app can post to, or Slack's refusal. */
  postable(channel: string | undefined): string {
    if (!channel) throw new SlackApiError("channel_not_found");
    const c = this.conversations.get(channel);
    if (!c) throw new SlackApiError("channel_not_found");
    if (c.archived) throw new SlackApiError("is_archived");
    if (!c.member) throw new SlackApiError("not_in_channel");
    return channel;
  }

  /** The thread a `thread_ts` names (a reply's ts names its parent's thread), or `thread_not_found`. */
  thread(channel: string, threadTs: string | undefined): string | undefined {
    if (threadTs === undefined || threadTs === "") return undefined;
    const parent = this.byTs.get(`${channel}/${threadTs}`);
    if (!parent) throw new SlackApiError("thread_not_found");
    return parent.threadTs ?? parent.ts;
  }

  /** Refuse text Slack would truncate. */
  checkText(text: string, field: string): void {
    if (text.length > TEXT_LIMIT)
      throw new SlackApiError("msg_too_long", [
        `[ERROR] ${field} is ${text.length} characters; the limit is ${TEXT_LIMIT}`,
      ]);
  }

  /** Store a message and return it. */
  post(message: Omit<StoredMessage, "ts">): StoredMessage {
    this.seq += 1;
    const stored: StoredMessage = { ...message, ts: `1700000000.${String(this.seq * 100).padStart(6, "0")}` };
    this.messages.push(stored);
    this.byTs.set(`${stored.channel}/${stored.ts}`, stored);
    return stored;
  }

  /** The message at `ts` in a channel, or `message_not_found`. */
  find(channel: string, ts: string | undefined): StoredMessage {
    const found = ts === undefined ? undefined : this.byTs.get(`${channel}/${ts}`);
    if (!found) throw new SlackApiError("message_not_found");
    return found;
  }

  /** Replace a message's text (an accepted `chat.update`); the text it showed becomes a revision. */
  update(message: StoredMessage, text: string, markdown: string | undefined): void {
    const shown = observe(message);
    message.revisions = [...(message.revisions ?? []), shown.text ?? shown.caption ?? ""];
    message.text = text;
    if (markdown === undefined) delete message.markdown;
    else message.markdown = markdown;
  }

  /** Remove a message (an accepted `chat.delete`). */
  remove(message: StoredMessage): void {
    this.messages.splice(this.messages.indexOf(message), 1);
    this.byTs.delete(`${message.channel}/${message.ts}`);
  }

  /** What a Slack client shows in a channel (every channel when omitted), seeded inbound messages excluded. */
  observe(channel?: string): ObservedMessage[] {
    return this.messages
      .filter((m) => !m.inbound && (channel === undefined || m.channel === channel))
      .map((m) => observe(m));
  }
}

function observe(m: StoredMessage): ObservedMessage {
  const decoded = m.markdown === undefined ? decodeMrkdwn(m.text) : decodeMarkdownText(m.markdown);
  const place = m.threadTs === undefined ? {} : { thread: m.threadTs, replyTo: m.threadTs };
  const formatting = decoded.formatting.length > 0 ? { formatting: decoded.formatting } : {};
  const revisions = m.revisions ? { revisions: [...m.revisions] } : {};
  const pinged = mrkdwnMentions(m.markdown ?? m.text);
  const mentions = pinged ? { mentions: pinged } : {};
  if (m.files.length === 0)
    return { kind: "text", text: decoded.text, ...formatting, ...mentions, ...place, ...revisions };
  const caption = decoded.text === "" ? {} : { caption: decoded.text, ...formatting, ...mentions };
  const items = m.files.map(fileMessage);
  if (items.length === 1) return { ...(items[0] as ObservedMessage), ...caption, ...place, ...revisions };
  return { kind: "album", items, ...caption, ...place, ...revisions };
}

function fileMessage(file: StoredFile): ObservedMessage {
  const upload = file.upload ?? { bytes: 0, sha256: "", mimeType: "application/octet-stream" };
  return {
    kind: shownKind(upload.mimeType),
    fileName: file.fileName,
    mimeType: upload.mimeType,
    sha256: upload.sha256,
    bytes: upload.bytes,
  };
}
