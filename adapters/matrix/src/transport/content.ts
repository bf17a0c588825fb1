/**
 * Event contents as the spec defines them (`m.room.message` msgtypes): text with its HTML
 * and plain `body`; media with `url`, `filename`, `info` and, with a caption, `body` as the
 * caption (the spec's rule: `body` differing from `filename` is a caption); voice notes with
 * MSC3245 and MSC1767 audio; edits as `m.replace` with `m.new_content`.
 */
import type { LoadedMedia, MediaOperation, RenderedText } from "@outbox/core";
import { bodyOf } from "../render/body.js";

/** An event content (JSON object). */
export type Content = Record<string, unknown>;

/** The HTML format name of `formatted_body`. */
export const HTML_FORMAT = "org.matrix.custom.html";

/** A text message's content: `body` derived from the HTML, so both show the same. */
export function textContent(text: RenderedText, msgtype: "m.text" | "m.notice"): Content {
  return { msgtype, body: bodyOf(text.text), format: HTML_FORMAT, formatted_body: text.text };
}

/** An edit (`m.replace`) of `eventId` to `content`: the `* ` fallback outside, the new content inside. */
export function editContent(eventId: string, content: Content): Content {
  return {
    msgtype: content.msgtype,
    body: `* ${String(content.body)}`,
    "m.new_content": content,
    "m.relates_to": { rel_type: "m.replace", event_id: eventId },
  };
}

const MSGTYPES = { image: "m.image", animation: "m.image", video: "m.video", audio: "m.audio" } as const;

/** What `info` says of an item: MIME type, size, and the dimensions and duration core knows. */
export function infoOf(media: LoadedMedia): Content {
  return {
    mimetype: media.mimeType,
    size: media.size,
    ...(media.width !== undefined ? { w: media.width } : {}),
    ...(media.height !== undefined ? { h: media.height } : {}),
    ...(media.durationMs !== undefined ? { duration: Math.round(media.durationMs) } : {}),
  };
}

/** A media message's content for an uploaded item (`mxc` URI). */
export function mediaContent(op: MediaOperation, mxc: string): Content {
  const { media } = op;
  const msgtype = op.kind === "voice" ? "m.audio" : (MSGTYPES[op.kind as keyof typeof MSGTYPES] ?? "m.file");
  const caption = op.caption
    ? { body: bodyOf(op.caption.text), format: HTML_FORMAT, formatted_body: op.caption.text }
    : { body: media.fileName };
  return { msgtype, ...caption, filename: media.fileName, url: mxc, info: infoOf(media) };
}

/** MSC3245 voice message fields on top of an `m.audio` content: duration (ms) and waveform (0–1024). */
export function voiceFields(durationMs: number, waveform: number[]): Content {
  return {
    "org.matrix.msc1767.audio": { duration: Math.round(durationMs), waveform },
    "org.matrix.msc3245.voice": {},
  };
}
