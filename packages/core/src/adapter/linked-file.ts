/**
 * A file a platform fetches by the link a bot gave (Teams' attachments, Google Chat's card
 * images): fetched as the platform fetches it, at most `maxBytes`, and its bytes sniffed by
 * their signature so an emulator can check them against the declared type. A fetch that
 * fails is the bot's error: a {@link LinkedFileError} the emulator answers in its own words.
 */
import { createHash } from "node:crypto";
import type { Dispatcher } from "undici";
import { sendRequest } from "../media/remote/undici.js";

/** Bytes a link served. */
export interface LinkedFile {
  /** The declared type (the answer's `Content-Type`, or what the caller says it is). */
  mimeType: string;
  /** Hex sha256. */
  sha256: string;
  /** Size. */
  bytes: number;
  /** The type the bytes' signature names, when it names one of {@link sniffSignature}'s. */
  sniffed?: string;
}

/** The link could not be fetched, or served too much or a failure: the message says which. */
export class LinkedFileError extends Error {}

/** Signatures: offset, bytes as Latin-1, the type. */
const SIGNATURES: ReadonlyArray<readonly [number, string, string]> = [
  [0, "\x89PNG\r\n\x1a\n", "image/png"],
  [0, "\xff\xd8\xff", "image/jpeg"],
  [0, "GIF8", "image/gif"],
  [0, "%PDF-", "application/pdf"],
  [0, "OggS", "audio/ogg"],
  [8, "WAVE", "audio/wav"],
  [4, "ftyp", "video/mp4"],
  [0, "ID3", "audio/mpeg"],
];

/** The type the bytes' signature names (PNG, JPEG, GIF, PDF, Ogg, WAV, MP4, MP3). */
export function sniffSignature(data: Buffer): string | undefined {
  for (const [at, magic, type] of SIGNATURES)
    if (data.subarray(at, at + magic.length).toString("latin1") === magic) return type;
  return undefined;
}

/** Describe bytes of a declared type: hash, size, sniffed type. */
export function describeLinkedFile(data: Buffer, mimeType: string): LinkedFile {
  const sniffed = sniffSignature(data);
  return {
    mimeType,
    sha256: createHash("sha256").update(data).digest("hex"),
    bytes: data.length,
    ...(sniffed === undefined ? {} : { sniffed }),
  };
}

/**
 * Whether a file's bytes are what it was served as: its signature unknown, the same type, or
 * a type the signature table names one way and servers another (an MP4 box served as
 * `audio/mp4` or `video/quicktime`, MP3 as `audio/mp3`, Ogg, WAV).
 */
export function servedAsSniffed(file: LinkedFile): boolean {
  const { sniffed, mimeType: declared } = file;
  return (
    sniffed === undefined ||
    sniffed === declared ||
    (sniffed === "video/mp4" && /^(audio|video)\/(mp4|quicktime|x-m4a)$/.test(declared)) ||
    (sniffed === "audio/mpeg" && declared === "audio/mp3") ||
    (sniffed === "audio/ogg" && /^(audio|video|application)\/ogg/.test(declared)) ||
    (sniffed === "audio/wav" && /^audio\/(x-)?wav/.test(declared))
  );
}

/** Fetch `url` through `dispatcher` as a platform does for a linked file. */
export async function fetchLinkedFile(
  dispatcher: Dispatcher,
  url: string,
  maxBytes: number,
): Promise<LinkedFile> {
  if (!/^https?:\/\//.test(url) || !URL.canParse(url))
    throw new LinkedFileError(`${url.slice(0, 40)} is not an http(s) URL`);
  const { origin, pathname, search } = new URL(url);
  let response: Dispatcher.ResponseData;
  try {
    response = await sendRequest({ origin, path: `${pathname}${search}`, method: "GET" }, dispatcher);
  } catch {
    throw new LinkedFileError("the link could not be fetched");
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.body.destroy();
      throw new LinkedFileError(`the file is over ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  if (response.statusCode !== 200) throw new LinkedFileError(`the link answered ${response.statusCode}`);
  const type = String(response.headers["content-type"] ?? "application/octet-stream")
    .split(";")[0]
    ?.trim();
  return describeLinkedFile(Buffer.concat(chunks), type || "application/octet-stream");
}
