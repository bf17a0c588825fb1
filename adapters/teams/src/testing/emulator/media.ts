/**
 * Attachments as Teams reads them: an inline image's `data:` URI decoded, and any URL
 * fetched, as Teams fetches what a bot links; the bytes sniffed by their signature and
 * checked against the declared type.
 */
import { createHash } from "node:crypto";
import type { Dispatcher } from "undici";
import { requestApi } from "../../client/undici.js";
import { badArgument } from "./errors.js";

/** Bytes an attachment named, fetched or decoded. */
export interface FetchedMedia {
  /** The declared type (the attachment's `contentType`, or the fetched answer's `Content-Type`). */
  mimeType: string;
  /** Hex sha256. */
  sha256: string;
  /** Size. */
  bytes: number;
  /** The type the bytes' signature names, when it names one this emulator knows. */
  sniffed?: string;
}

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

/** The type the bytes' signature names. */
export function sniff(data: Buffer): string | undefined {
  for (const [at, magic, type] of SIGNATURES)
    if (data.subarray(at, at + magic.length).toString("latin1") === magic) return type;
  return undefined;
}

function described(data: Buffer, mimeType: string): FetchedMedia {
  const sniffed = sniff(data);
  return {
    mimeType,
    sha256: createHash("sha256").update(data).digest("hex"),
    bytes: data.length,
    ...(sniffed === undefined ? {} : { sniffed }),
  };
}

/** Decode a `data:<type>;base64,…` URI, refusing one over `maxBytes` or of another type than `contentType`. */
export function decodeDataUri(uri: string, contentType: string, maxBytes: number): FetchedMedia {
  const match = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(uri);
  if (match === null) throw badArgument("contentUrl: a data URI must be data:<type>;base64,<data>");
  if (match[1] !== contentType)
    throw badArgument(`contentUrl: data URI of ${match[1]} under contentType ${contentType}`);
  const data = Buffer.from(match[2] ?? "", "base64");
  if (data.length > maxBytes) throw badArgument(`contentUrl: an inline image is at most ${maxBytes} bytes`);
  return described(data, contentType);
}

/** Fetch a URL as Teams does for a linked attachment; a failed fetch is the bot's error. */
export async function fetchMedia(
  dispatcher: Dispatcher,
  url: string,
  maxBytes: number,
): Promise<FetchedMedia> {
  if (!/^https?:\/\//.test(url) || !URL.canParse(url))
    throw badArgument(`contentUrl ${url.slice(0, 40)} is not an http(s) URL`);
  const { origin, pathname, search } = new URL(url);
  let response: Dispatcher.ResponseData;
  try {
    response = await requestApi.call(dispatcher, { origin, path: `${pathname}${search}`, method: "GET" });
  } catch {
    throw badArgument("contentUrl could not be fetched");
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.body.destroy();
      throw badArgument(`contentUrl: the file is over ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  if (response.statusCode !== 200) throw badArgument(`contentUrl answered ${response.statusCode}`);
  const type = String(response.headers["content-type"] ?? "application/octet-stream")
    .split(";")[0]
    ?.trim();
  return described(Buffer.concat(chunks), type ?? "application/octet-stream");
}
