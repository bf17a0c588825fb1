/**
 * The emulated business number's conversations: the messages each person holds (raw, as
 * stored), the uploaded media, the customer service window, and what the WhatsApp client
 * shows for each message (`ObservedMessage`).
 */
import { randomBytes } from "node:crypto";
import type { ObservedMessage } from "@outbox/core";
import type { LinkFetcher } from "./fetch-links.js";
import { GraphApiError } from "./graph-error.js";
import { decodeMarkup } from "./markup.js";
import type { StoredMedia, StoredMessage } from "./types.js";

/** State of the emulated number. */
export class Conversations {
  /** Every message, in order. */
  readonly messages: StoredMessage[] = [];
  /** Uploaded media by id. */
  readonly media = new Map<string, StoredMedia>();
  private readonly byId = new Map<string, StoredMessage>();
  private readonly lastInbound = new Map<string, number>();
  private seq = 0;

  constructor(
    private readonly options: {
      allowed?: Set<string>;
      windowMs: number;
      now: () => number;
      links?: LinkFetcher;
    },
  ) {}

  /** The WhatsApp id of a recipient as given in `to` (`+1 555-0100` → `15550100`), or Graph's refusal. */
  recipient(to: unknown): string {
    if (typeof to !== "string" || !/^\+?[\d\s().-]{6,}$/.test(to))
      throw new GraphApiError(
        100,
        "Invalid parameter",
        "Param to must be a phone number (digits, with country code).",
      );
    const waId = to.replace(/\D/g, "");
    if (this.options.allowed !== undefined && !this.options.allowed.has(waId))
      throw new GraphApiError(
        131030,
        "Recipient phone number not in allowed list",
        "Recipient phone number not in allowed list: Add recipient phone number to recipient list and try again.",
      );
    return waId;
  }

  /** Refuse a free-form message outside the 24-hour customer service window. */
  checkWindow(waId: string): void {
    const last = this.lastInbound.get(waId);
    if (last === undefined || this.options.now() - last > this.options.windowMs)
      throw new GraphApiError(
        131047,
        "Re-engagement message",
        "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
      );
  }

  /** The id a `context.message_id` names in this conversation, or `undefined` (WhatsApp then drops the quote). */
  quoted(waId: string, id: unknown): string | undefined {
    const found = typeof id === "string" ? this.byId.get(id) : undefined;
    return found !== undefined && found.waId === waId ? found.id : undefined;
  }

  /** Store a message and return it. */
  store(message: Omit<StoredMessage, "id">): StoredMessage {
    this.seq += 1;
    const serial = Buffer.from(`${message.waId}:${this.seq}:`).toString("base64url");
    const stored: StoredMessage = {
      ...message,
      id: `wamid.HBgL${serial}${randomBytes(9).toString("base64url")}`,
    };
    this.messages.push(stored);
    this.byId.set(stored.id, stored);
    if (stored.link !== undefined) this.options.links?.track(stored);
    if (stored.inbound) this.lastInbound.set(stored.waId, this.options.now());
    return stored;
  }

  /** What the WhatsApp client of a person shows (every person when omitted), their own messages excluded. */
  observe(waId?: string): ObservedMessage[] {
    return this.messages.filter((m) => !m.inbound && (waId === undefined || m.waId === waId)).map(observe);
  }
}

function observe(m: StoredMessage): ObservedMessage {
  const decoded = decodeMarkup(m.body ?? "");
  const formatting = decoded.formatting.length > 0 ? { formatting: decoded.formatting } : {};
  const reply = m.replyTo === undefined ? {} : { replyTo: m.replyTo };
  if (m.type === "text") return { kind: "text", text: decoded.text, ...formatting, ...reply };
  const kind = m.type === "audio" && m.voice ? "voice" : (m.type as ObservedMessage["kind"]);
  const caption = decoded.text === "" ? {} : { caption: decoded.text, ...formatting };
  // A `link` not fetched (yet, or at all): the client shows the file name WhatsApp takes from the URL, no bytes are known.
  const fetched = m.fetched?.ok ? { ...m.fetched, fileName: linkFileName(m.fetched.url) } : undefined;
  if (m.link !== undefined && fetched === undefined)
    return { kind, ...caption, fileName: m.fileName ?? linkFileName(m.link), ...reply };
  const media = fetched ?? (m.media as StoredMedia);
  return {
    kind,
    ...caption,
    fileName: m.fileName ?? media.fileName,
    mimeType: media.mimeType,
    sha256: media.sha256,
    bytes: media.bytes,
    ...reply,
  };
}

/** The last path segment of a link, decoded. */
function linkFileName(link: string): string {
  const last = new URL(link).pathname.split("/").pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
