/**
 * A `multipart/form-data` body for Create Message, streamed: `payload_json` first, then
 * `files[n]` parts read from each item's source as they go out. The body is re-iterable:
 * every iteration re-opens the sources, so a client that sends it again sends it whole.
 */
import { randomBytes } from "node:crypto";
import { multipartFileName } from "@outbox/core";

/** One file part. */
export interface FilePart {
  /** File name shown in Discord. */
  name: string;
  /** Part Content-Type. */
  contentType: string;
  /** A fresh stream of the bytes on every call. */
  open(): AsyncIterable<Uint8Array>;
}

/** A multipart body and its Content-Type header. */
export interface MultipartBody {
  /** `multipart/form-data; boundary=…`. */
  contentType: string;
  /** The body, iterable any number of times. */
  body: AsyncIterable<Uint8Array>;
}

const encoder = new TextEncoder();

/** Build the body for a JSON payload and its files. */
export function multipartBody(payload: unknown, files: FilePart[]): MultipartBody {
  const boundary = `----outbox-${randomBytes(12).toString("hex")}`;
  async function* generate(): AsyncGenerator<Uint8Array> {
    yield encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(payload)}\r\n`,
    );
    for (const [index, file] of files.entries()) {
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="files[${index}]"; filename=${multipartFileName(file.name)}\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      );
      yield* file.open();
      yield encoder.encode("\r\n");
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: { [Symbol.asyncIterator]: generate },
  };
}
