/**
 * Tiny media files built in code: enough header for sniffing, dimensions and durations.
 */

/** A PNG header (signature, IHDR, IEND) of the given size. */
export function png(width = 640, height = 480): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 6, 0, 0, 0], 16);
  const iend = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, iend]);
}

/** A GIF89a header of the given size. */
export function gif(width = 320, height = 200): Buffer {
  const bytes = Buffer.alloc(32);
  bytes.write("GIF89a", 0, "latin1");
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  bytes[bytes.length - 1] = 0x3b;
  return bytes;
}

/** A JPEG with an APP0 (JFIF) segment, APP1 padding segments and a baseline frame header. */
export function jpeg(width = 1024, height = 768, paddingBytes = 100): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const padding: Buffer[] = [];
  for (let left = paddingBytes; left > 0; left -= 60_000) {
    const length = Math.min(left, 60_000);
    const app1 = Buffer.alloc(4 + length);
    app1.set([0xff, 0xe1]);
    app1.writeUInt16BE(length + 2, 2);
    padding.push(app1);
  }
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, ...padding, sof, Buffer.from([0xff, 0xd9])]);
}

/** A lossy WebP (VP8) header of the given size. */
export function webp(width = 800, height = 600): Buffer {
  const bytes = Buffer.alloc(40);
  bytes.write("RIFF", 0, "latin1");
  bytes.writeUInt32LE(32, 4);
  bytes.write("WEBPVP8 ", 8, "latin1");
  bytes.writeUInt32LE(20, 16);
  bytes.set([0x9d, 0x01, 0x2a], 23);
  bytes.writeUInt16LE(width, 26);
  bytes.writeUInt16LE(height, 28);
  return bytes;
}

function oggPage(headerType: number, granule: bigint, sequence: number, body: Buffer): Buffer {
  const segments: number[] = [];
  let left = body.length;
  while (left >= 255) {
    segments.push(255);
    left -= 255;
  }
  segments.push(left);
  const header = Buffer.alloc(27 + segments.length);
  header.write("OggS", 0, "latin1");
  header[5] = headerType;
  header.writeBigUInt64LE(granule, 6);
  header.writeUInt32LE(0x1234, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = segments.length;
  header.set(segments, 27);
  return Buffer.concat([header, body]);
}

/**
 * An OGG Opus stream lasting `durationMs` (pre-skip 312), padded with audio pages of
 * filler to at least `minBytes`.
 */
export function oggOpus(durationMs = 3_000, minBytes = 0): Buffer {
  const head = Buffer.alloc(19);
  head.write("OpusHead", 0, "latin1");
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(312, 10);
  head.writeUInt32LE(48_000, 12);
  const tags = Buffer.concat([Buffer.from("OpusTags", "latin1"), Buffer.alloc(8)]);
  const pages = [oggPage(2, 0n, 0, head), oggPage(0, 0n, 1, tags)];
  let size = pages[0]!.length + pages[1]!.length;
  let sequence = 2;
  const filler = Buffer.alloc(4000, 0x55);
  while (size < minBytes) {
    const page = oggPage(0, BigInt(sequence * 960), sequence, filler);
    pages.push(page);
    size += page.length;
    sequence += 1;
  }
  pages.push(oggPage(4, BigInt((durationMs * 48_000) / 1000 + 312), sequence, Buffer.alloc(100, 0x11)));
  return Buffer.concat(pages);
}

/** A zip archive's first local file header with one stored entry (`notes.txt`). */
export function zip(): Buffer {
  const name = Buffer.from("notes.txt", "latin1");
  const data = Buffer.from("hello", "latin1");
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name, data]);
}
