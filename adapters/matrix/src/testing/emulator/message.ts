/**
 * `m.room.message` content as the emulator checks it, and what Element shows of it. Synapse
 * itself checks little of a message's content (it stores any JSON object); this emulator
 * checks what the spec requires of each msgtype, because a client shows a broken or empty
 * event for content that breaks it: `msgtype` and `body` strings; `format` with
 * `formatted_body`, within the HTML allow-list; media `url` an `mxc://` URI of an upload, with
 * `info.mimetype`, `info.size` (and `w`/`h` where the header tells) matching the uploaded
 * bytes and the msgtype; voice (MSC3245) with MSC1767 `duration` and `waveform`.
 */
import type { ObservedMessage } from "@outbox/core";
import { badJson } from "./api-error.js";
import { checkHtml, decodeHtml } from "./html.js";
import { imageSize, type MediaRepository, type StoredMedia, sniffType } from "./media.js";

const MSGTYPES = new Set(["m.text", "m.notice", "m.emote", "m.image", "m.video", "m.audio", "m.file"]);
const MEDIA_FAMILY: Record<string, string> = {
  "m.image": "image/",
  "m.video": "video/",
  "m.audio": "audio/",
};
/** MIME types naming the same bytes. */
const ALIASES: Record<string, string> = {
  "image/jpg": "image/jpeg",
  "audio/x-wav": "audio/wav",
  "audio/wave": "audio/wav",
  "audio/vnd.wave": "audio/wav",
  "audio/mp3": "audio/mpeg",
  "audio/mp4": "video/mp4",
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Check a message content (not an edit's outer fallback) and read what Element shows. */
export function readMessage(content: Record<string, unknown>, media: MediaRepository): ObservedMessage {
  const { msgtype, body } = content;
  if (typeof msgtype !== "string" || !MSGTYPES.has(msgtype))
    throw badJson(`msgtype ${JSON.stringify(msgtype)} is not an m.room.message msgtype`);
  if (typeof body !== "string") throw badJson("body must be a string (every m.room.message has one)");
  const shown = formatted(content);
  if (msgtype === "m.text" || msgtype === "m.notice" || msgtype === "m.emote") {
    if ((shown.text ?? "").trim() === "") throw badJson("the message shows no text");
    return { kind: "text", ...shown };
  }
  const file = uploaded(content, media);
  const info = content.info;
  if (!isObject(info)) throw badJson(`${msgtype} needs info (mimetype, size)`);
  checkInfo(msgtype, info, file);
  const fileName = typeof content.filename === "string" ? content.filename : body;
  // The spec's caption rule: with a `filename` that differs from `body`, `body` is a caption.
  const captioned = typeof content.filename === "string" && content.filename !== body;
  const mimeType = String(info.mimetype);
  const observed: ObservedMessage = {
    kind: kindOf(msgtype, mimeType, content),
    fileName,
    mimeType,
    sha256: file.sha256,
    bytes: file.data.length,
  };
  if (observed.kind === "voice") checkVoice(content);
  if (captioned) {
    const { text, ...rest } = shown;
    return { ...observed, caption: text, ...rest };
  }
  if (content.format !== undefined) throw badJson("format without a caption (body equals filename)");
  return observed;
}

/** The visible text, spans and lines of `body` / `formatted_body`. */
function formatted(content: Record<string, unknown>): Pick<ObservedMessage, "text" | "formatting" | "lines"> {
  const { format, formatted_body: html, body } = content;
  if (format === undefined && html === undefined) return { text: String(body) };
  if (format !== "org.matrix.custom.html")
    throw badJson(`format ${JSON.stringify(format)} is not org.matrix.custom.html`);
  if (typeof html !== "string") throw badJson("formatted_body must be a string with format");
  checkHtml(html);
  const decoded = decodeHtml(html);
  return {
    text: decoded.text,
    lines: decoded.lines,
    ...(decoded.formatting.length > 0 ? { formatting: decoded.formatting } : {}),
  };
}

function uploaded(content: Record<string, unknown>, media: MediaRepository): StoredMedia {
  const { url } = content;
  if (typeof url !== "string" || !url.startsWith("mxc://"))
    throw badJson("url must be an mxc:// URI (encrypted media, `file`, is out of scope here)");
  const file = media.get(url);
  if (file === undefined) throw badJson(`url ${url} names no upload of this homeserver`);
  return file;
}

function checkInfo(msgtype: string, info: Record<string, unknown>, file: StoredMedia): void {
  const { mimetype, size } = info;
  if (typeof mimetype !== "string") throw badJson("info.mimetype must be a string");
  if (size !== file.data.length)
    throw badJson(`info.size ${String(size)} is not the uploaded ${file.data.length} bytes`);
  const sniffed = sniffType(file.data);
  const canonical = (type: string) => ALIASES[type] ?? type;
  if (sniffed !== undefined && canonical(mimetype) !== canonical(sniffed))
    throw badJson(`info.mimetype ${mimetype} does not match the uploaded bytes (${sniffed})`);
  const family = MEDIA_FAMILY[msgtype];
  if (
    family !== undefined &&
    !mimetype.startsWith(family) &&
    !(msgtype === "m.audio" && mimetype === "video/mp4")
  )
    throw badJson(`${msgtype} with info.mimetype ${mimetype}`);
  const size2d = imageSize(file.data);
  for (const [field, actual] of [
    ["w", size2d?.w],
    ["h", size2d?.h],
  ] as const)
    if (info[field] !== undefined && actual !== undefined && info[field] !== actual)
      throw badJson(`info.${field} ${String(info[field])} is not the image's ${actual}`);
  if (info.duration !== undefined && (!Number.isInteger(info.duration) || (info.duration as number) < 0))
    throw badJson("info.duration must be a whole number of milliseconds");
}

function checkVoice(content: Record<string, unknown>): void {
  const audio = content["org.matrix.msc1767.audio"];
  if (!isObject(audio)) throw badJson("a voice message (MSC3245) needs org.matrix.msc1767.audio");
  if (!Number.isInteger(audio.duration) || (audio.duration as number) <= 0)
    throw badJson("org.matrix.msc1767.audio.duration must be a positive whole number of milliseconds");
  const { waveform } = audio;
  if (
    !Array.isArray(waveform) ||
    waveform.length === 0 ||
    !waveform.every((v) => Number.isInteger(v) && v >= 0 && v <= 1024)
  )
    throw badJson("org.matrix.msc1767.audio.waveform must be a non-empty array of integers 0–1024 (MSC3246)");
}

function kindOf(
  msgtype: string,
  mimeType: string,
  content: Record<string, unknown>,
): ObservedMessage["kind"] {
  if (msgtype === "m.image") return mimeType === "image/gif" ? "animation" : "image";
  if (msgtype === "m.video") return "video";
  if (msgtype === "m.audio") return content["org.matrix.msc3245.voice"] !== undefined ? "voice" : "audio";
  return "document";
}
