/**
 * Stored messages → `ObservedMessage`s: what the page shows, decoded from the same stored
 * HTML and media metadata the page renders. The person's own messages and `embed`
 * messages (no `ObservedMessage` kind) are left out.
 */
import type { ObservedMessage } from "@outbox/core";
import { decodeHtml } from "../render/decode-html.js";
import type { WebMedia, WebMessage } from "../store/types.js";

/** Decode one conversation's assistant messages, in order. */
export function observeMessages(messages: WebMessage[]): ObservedMessage[] {
  return messages.filter(delivered).map(observe);
}

/** A message the assistant delivered, of a kind `ObservedMessage` has (not an embed). */
type Delivered = WebMessage & { kind: Exclude<WebMessage["kind"], "embed"> };

function delivered(message: WebMessage): message is Delivered {
  return message.author === "assistant" && message.kind !== "embed";
}

function observe(message: Delivered): ObservedMessage {
  const decoded = message.html === undefined ? undefined : decodeHtml(message.html);
  const formatting =
    decoded !== undefined && decoded.formatting.length > 0 ? { formatting: decoded.formatting } : {};
  const base: ObservedMessage = {
    kind: message.kind,
    ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
    ...(message.thread === undefined ? {} : { thread: message.thread }),
  };
  if (message.kind === "text") return { ...base, text: decoded?.text ?? "", ...formatting };
  const caption =
    decoded === undefined || decoded.text === "" ? {} : { caption: decoded.text, ...formatting };
  const media = message.media ?? [];
  if (message.kind === "album") return { ...base, ...caption, items: media.map(item) };
  const [first] = media;
  return { ...base, ...caption, ...(first === undefined ? {} : fileFields(first)) };
}

function item(media: WebMedia): ObservedMessage {
  return { kind: media.kind, ...fileFields(media) };
}

function fileFields(media: WebMedia): Pick<ObservedMessage, "fileName" | "mimeType" | "sha256" | "bytes"> {
  return { fileName: media.fileName, mimeType: media.mimeType, sha256: media.sha256, bytes: media.bytes };
}
