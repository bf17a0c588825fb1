import { deflateSync } from "node:zlib";
import type { MediaAttachment } from "../../../src/payload/types.js";

function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** A valid PNG of the given size (grey pixels), plus `padding` extra bytes in a text chunk. */
export function png(width = 2, height = 2, padding = 0): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y += 1) rows[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    ...(padding > 0 ? [chunk("tEXt", Buffer.alloc(padding, 0x61))] : []),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A minimal OGG/Opus stream (identification header page). */
export function oggOpus(): Uint8Array {
  const opusHead = Buffer.concat([
    Buffer.from("OpusHead"),
    Buffer.from([1, 1, 0x38, 1, 0x80, 0xbb, 0, 0, 0, 0, 0]),
  ]);
  const page = Buffer.concat([
    Buffer.from("OggS"),
    Buffer.from([0, 2]),
    Buffer.alloc(8),
    Buffer.from([1, 0, 0, 0]),
    Buffer.alloc(4),
    Buffer.alloc(4),
    Buffer.from([1, opusHead.length]),
    opusHead,
  ]);
  return page;
}

/** A few MPEG-1 Layer III frames. */
export function mp3(): Uint8Array {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([frame, frame, frame, frame]);
}

/** A tiny PDF. */
export function pdf(): Uint8Array {
  return Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
}

/** Inline attachments for the engine tests. */
export const attach = {
  png: (width?: number, height?: number, padding?: number): MediaAttachment => ({
    mimeType: "image/png",
    data: png(width, height, padding),
    fileName: "a.png",
  }),
  ogg: (): MediaAttachment => ({ mimeType: "audio/ogg", data: oggOpus(), fileName: "v.ogg" }),
  mp3: (): MediaAttachment => ({ mimeType: "audio/mpeg", data: mp3(), fileName: "s.mp3" }),
  pdf: (): MediaAttachment => ({ mimeType: "application/pdf", data: pdf(), fileName: "d.pdf" }),
};
