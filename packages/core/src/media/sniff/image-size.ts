/**
 * Image dimensions from the first bytes of PNG, JPEG, GIF and WebP files (no decoding).
 */

/** Width and height in pixels. */
export interface ImageSize {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function pngSize(view: DataView): ImageSize | undefined {
  if (view.byteLength < 24) return undefined;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function gifSize(view: DataView): ImageSize | undefined {
  if (view.byteLength < 10) return undefined;
  return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
}

/** Start-of-frame markers (baseline, progressive, lossless, …), not DHT/JPG/DAC. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (isStartOfFrame(marker)) {
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    offset += 2 + view.getUint16(offset + 2);
  }
  return undefined;
}

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (view.byteLength < 30) return undefined;
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8 ") {
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    const width = 1 + ((bytes[24] ?? 0) | ((bytes[25] ?? 0) << 8) | ((bytes[26] ?? 0) << 16));
    const height = 1 + ((bytes[27] ?? 0) | ((bytes[28] ?? 0) << 8) | ((bytes[29] ?? 0) << 16));
    return { width, height };
  }
  return undefined;
}

/**
 * Reads the dimensions of a PNG, JPEG, GIF or WebP image from its first bytes (the JPEG
 * frame header may follow large metadata: pass the first 64 KiB). Undefined when the
 * type is another one or the header is not within `head`.
 */
export function readImageSize(mime: string, head: Uint8Array): ImageSize | undefined {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  let size: ImageSize | undefined;
  if (mime === "image/png") size = pngSize(view);
  else if (mime === "image/gif") size = gifSize(view);
  else if (mime === "image/jpeg") size = jpegSize(head, view);
  else if (mime === "image/webp") size = webpSize(head, view);
  return size !== undefined && size.width > 0 && size.height > 0 ? size : undefined;
}
