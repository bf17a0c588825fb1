/**
 * File types as Slack detects them: magic bytes first, then the file name's extension.
 */

const MAGIC: Array<[type: string, test: (head: Buffer) => boolean]> = [
  ["image/png", (h) => h.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex"))],
  ["image/jpeg", (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff],
  ["image/gif", (h) => h.subarray(0, 4).toString("latin1") === "GIF8"],
  [
    "image/webp",
    (h) => h.subarray(0, 4).toString("latin1") === "RIFF" && h.subarray(8, 12).toString("latin1") === "WEBP",
  ],
  [
    "audio/wav",
    (h) => h.subarray(0, 4).toString("latin1") === "RIFF" && h.subarray(8, 12).toString("latin1") === "WAVE",
  ],
  ["audio/ogg", (h) => h.subarray(0, 4).toString("latin1") === "OggS"],
  [
    "audio/mpeg",
    (h) => h.subarray(0, 3).toString("latin1") === "ID3" || (h[0] === 0xff && ((h[1] ?? 0) & 0xe0) === 0xe0),
  ],
  ["video/mp4", (h) => h.subarray(4, 8).toString("latin1") === "ftyp"],
  ["application/pdf", (h) => h.subarray(0, 5).toString("latin1") === "%PDF-"],
];

const EXTENSIONS: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  pdf: "application/pdf",
  txt: "text/plain",
};

/** MIME type of a file from its first bytes, else its name. */
export function sniffMimeType(head: Buffer, fileName: string): string {
  for (const [type, test] of MAGIC) if (test(head)) return type;
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? "";
  return EXTENSIONS[extension] ?? "application/octet-stream";
}

/** The kind of message a Slack client shows for a file: animated GIFs play, images, players, else a file. */
export function shownKind(mimeType: string): "image" | "animation" | "video" | "audio" | "document" {
  if (mimeType === "image/gif") return "animation";
  if (mimeType.startsWith("image/")) return "image";
  if (mimeType.startsWith("video/")) return "video";
  if (mimeType.startsWith("audio/")) return "audio";
  return "document";
}
