/**
 * Attachments as Teams reads them: an inline image's `data:` URI decoded, and any URL
 * fetched, as Teams fetches what a bot links; the bytes sniffed by their signature and
 * checked against the declared type.
 */
import { describeLinkedFile, fetchLinkedFile, type LinkedFile, LinkedFileError } from "@outbox/core/testing";
import type { Dispatcher } from "undici";
import { badArgument } from "./errors.js";

/** Bytes an attachment named, fetched or decoded (core's emulator kit). */
export type FetchedMedia = LinkedFile;

/** Decode a `data:<type>;base64,…` URI, refusing one over `maxBytes` or of another type than `contentType`. */
export function decodeDataUri(uri: string, contentType: string, maxBytes: number): FetchedMedia {
  const match = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(uri);
  if (match === null) throw badArgument("contentUrl: a data URI must be data:<type>;base64,<data>");
  if (match[1] !== contentType)
    throw badArgument(`contentUrl: data URI of ${match[1]} under contentType ${contentType}`);
  const data = Buffer.from(match[2] ?? "", "base64");
  if (data.length > maxBytes) throw badArgument(`contentUrl: an inline image is at most ${maxBytes} bytes`);
  return describeLinkedFile(data, contentType);
}

/** Fetch a URL as Teams does for a linked attachment; a failed fetch is the bot's error. */
export async function fetchMedia(
  dispatcher: Dispatcher,
  url: string,
  maxBytes: number,
): Promise<FetchedMedia> {
  try {
    return await fetchLinkedFile(dispatcher, url, maxBytes);
  } catch (error) {
    throw error instanceof LinkedFileError ? badArgument(`contentUrl: ${error.message}`) : error;
  }
}
