/**
 * WhatsApp's supported media types and sizes ("Supported media types", Cloud API reference;
 * see docs/adapters/whatsapp.md), and the file types the emulator recognizes from their bytes.
 */
import { DOCUMENT_TYPES } from "../../capabilities.js";

const MB = 1024 * 1024;

/** MIME types each message type takes, with its size limit. */
export const MEDIA_RULES: Record<string, { types: string[]; maxBytes: number }> = {
  // "audio/ogg (OPUS codecs only; base audio/ogg not supported)".
  audio: { types: ["audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"], maxBytes: 16 * MB },
  image: { types: ["image/jpeg", "image/png"], maxBytes: 5 * MB },
  video: { types: ["video/mp4", "video/3gpp"], maxBytes: 16 * MB },
  // Meta's table lists office documents, PDF and text; WhatsApp also delivers any other
  // supported file (a photo kept uncompressed) as a document, which the emulator accepts.
  document: {
    types: DOCUMENT_TYPES,
    maxBytes: 100 * MB,
  },
  sticker: { types: ["image/webp"], maxBytes: 500 * 1024 },
};

/** Every type `/media` accepts (Graph's error 100 lists them when another arrives). */
export const UPLOAD_TYPES = [...new Set(Object.values(MEDIA_RULES).flatMap((rule) => rule.types))];

/** Voice notes: Ogg with the Opus codec only. */
export const VOICE_TYPE = "audio/ogg";

const OOXML = /^application\/vnd\.openxmlformats-officedocument\./;
const OLE = /^application\/(msword|vnd\.ms-excel|vnd\.ms-powerpoint)$/;

const ascii = (head: Buffer, from: number, to: number) => head.subarray(from, to).toString("latin1");

/** The type the first bytes show; `undefined` when they carry no signature (text). */
export function sniff(head: Buffer): string | undefined {
  if (head.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex"))) return "image/png";
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (ascii(head, 0, 4) === "GIF8") return "image/gif";
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return "image/webp";
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WAVE") return "audio/wav";
  if (ascii(head, 0, 4) === "OggS")
    return ascii(head, 28, 36) === "OpusHead" ? "audio/ogg" : "audio/ogg; codecs=not-opus";
  if (ascii(head, 0, 3) === "ID3" || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0))
    return "audio/mpeg";
  if (ascii(head, 4, 8) === "ftyp") {
    const brand = ascii(head, 8, 12);
    if (brand.startsWith("3gp")) return "video/3gpp";
    if (brand === "M4A ") return "audio/mp4";
    return "video/mp4";
  }
  if (ascii(head, 0, 5) === "%PDF-") return "application/pdf";
  if (ascii(head, 0, 4) === "PK\u0003\u0004") return "application/zip";
  if (head.subarray(0, 8).equals(Buffer.from("d0cf11e0a1b11ae1", "hex"))) return "application/x-ole-storage";
  return undefined;
}

/** Whether bytes sniffed as `sniffed` may be what `declared` says (containers of office files included). */
export function matches(declared: string, sniffed: string | undefined): boolean {
  if (sniffed === undefined) return declared === "text/plain";
  if (sniffed === "application/zip") return OOXML.test(declared);
  if (sniffed === "application/x-ole-storage") return OLE.test(declared);
  return sniffed === declared;
}
