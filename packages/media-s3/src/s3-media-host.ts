/**
 * A media host on S3-compatible object storage (AWS S3, Cloudflare R2, MinIO, GCS's S3
 * interface): the bytes stream into the bucket as a multipart upload (never held whole), and
 * the link is a presigned GET that stops working at the item's expiry. The object carries its
 * `Content-Type` and `Content-Disposition`, so the link's query names neither the file nor
 * its type.
 */
import { Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  contentDisposition,
  DEFAULT_HOSTED_TTL_MS,
  DEFAULT_MAX_BYTES,
  type HostedMedia,
  MEDIA_KEY,
  type MediaHost,
  type MediaToHost,
  type PutMediaOptions,
  positiveMs,
  prepareMediaPut,
  putFailure,
} from "@outbox/core";

/** Longest lifetime a presigned link (AWS Signature Version 4) can have: seven days. */
export const MAX_PRESIGNED_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Smallest part S3 accepts in a multipart upload (the last part excepted): 5 MiB. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;

/** Options of {@link createS3MediaHost}. */
export interface S3MediaHostOptions {
  /**
   * The client, configured for your storage: `region` and credentials for AWS; `endpoint`
   * (`https://<account>.r2.cloudflarestorage.com`, your MinIO URL) and, for MinIO,
   * `forcePathStyle: true` elsewhere. Its credentials sign the links, so they need
   * `s3:PutObject`, `s3:GetObject` and `s3:DeleteObject` on the prefix.
   */
  client: S3Client;
  /** The bucket the items go to. Keep it private: the links are what make an item readable. */
  bucket: string;
  /**
   * Put before every key, e.g. `outbox-media/`, so that a lifecycle rule can expire exactly
   * these objects. Default none.
   */
  prefix?: string;
  /** How long a link works unless `put` says otherwise, in milliseconds; at most seven days. Default one day. */
  ttlMs?: number;
  /** Largest item accepted, in bytes. Default 100 MiB (`DEFAULT_MAX_BYTES`). */
  maxBytes?: number;
  /** Bytes per uploaded part; at least 5 MiB. Memory held by one put is about `partSize × queueSize`. Default 5 MiB. */
  partSize?: number;
  /** Parts uploaded at once. Default 2. */
  queueSize?: number;
  /** Current time in milliseconds since the Unix epoch: links are signed at this time. Default `Date.now`. */
  now?: () => number;
}

/** A prefix made only of characters every S3-compatible store takes in a key without escaping. */
const PREFIX = /^[A-Za-z0-9!_.*'()/-]{0,512}$/;

function checkTtl(name: string, ttlMs: number): number {
  positiveMs(name, ttlMs);
  if (ttlMs > MAX_PRESIGNED_TTL_MS)
    throw new RangeError(
      `${name} must be at most seven days (${MAX_PRESIGNED_TTL_MS} ms): a presigned S3 link cannot live longer; got ${ttlMs}`,
    );
  return ttlMs;
}

/** Create a media host on an S3-compatible bucket (see {@link S3MediaHostOptions}). */
export function createS3MediaHost(options: S3MediaHostOptions): MediaHost {
  const { client, bucket, prefix = "" } = options;
  if (!PREFIX.test(prefix) || prefix.split("/").some((part) => part === "." || part === ".."))
    throw new TypeError(
      `The S3 media host's prefix must be letters, digits and !_.*'()/- only, without . or .. segments, e.g. "outbox-media/"; got ${JSON.stringify(prefix)}.`,
    );
  const defaultTtlMs = checkTtl("ttlMs", options.ttlMs ?? DEFAULT_HOSTED_TTL_MS);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const partSize = options.partSize ?? MIN_PART_SIZE;
  if (!(Number.isInteger(partSize) && partSize >= MIN_PART_SIZE))
    throw new RangeError(
      `partSize must be a whole number of bytes of at least ${MIN_PART_SIZE}, got ${partSize}`,
    );
  const queueSize = options.queueSize ?? 2;
  if (!(Number.isInteger(queueSize) && queueSize >= 1))
    throw new RangeError(`queueSize must be a whole number of at least 1, got ${queueSize}`);
  const now = options.now ?? Date.now;

  async function put(media: MediaToHost, putOptions: PutMediaOptions = {}): Promise<HostedMedia> {
    if (putOptions.ttlMs !== undefined) checkTtl("ttlMs", putOptions.ttlMs);
    const signedAt = now();
    const item = prepareMediaPut(media, putOptions, { defaultTtlMs, maxBytes, now: signedAt });
    const Key = `${prefix}${item.key}`;
    // The uploader reports a failed body as its own error (or the failed abort of the
    // multipart upload after it): the body's error is the one that says what to fix.
    let bodyError: unknown;
    async function* recorded(bytes: AsyncIterable<Uint8Array>) {
      try {
        yield* bytes;
      } catch (error) {
        bodyError ??= error;
        throw error;
      }
    }
    const upload = new Upload({
      client,
      params: {
        Bucket: bucket,
        Key,
        Body: Readable.from(recorded(item.bytes), { objectMode: false }),
        ContentType: item.mimeType,
        ContentDisposition: contentDisposition(item.mimeType, item.fileName) ?? "inline",
      },
      partSize,
      queueSize,
    });
    // Awaited before the put settles: no request of a cancelled put is still in flight after it.
    let aborting: Promise<void> | undefined;
    const abort = () => {
      aborting = upload.abort().catch(() => undefined);
    };
    putOptions.signal?.addEventListener("abort", abort, { once: true });
    try {
      await upload.done();
    } catch (error) {
      await aborting;
      // A multipart upload cut short is aborted by the uploader; an object already written is not.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key })).catch(() => undefined);
      const signal = putOptions.signal;
      throw putFailure(signal?.aborted ? signal.reason : (bodyError ?? error), item.fileName, signal);
    } finally {
      putOptions.signal?.removeEventListener("abort", abort);
    }
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key }), {
      expiresIn: item.ttlSeconds,
      signingDate: new Date(Math.floor(signedAt / 1000) * 1000),
    });
    return { key: item.key, url, expiresAt: item.expiresAt };
  }

  return {
    put,
    async remove(key) {
      // Only keys this host made: anything else could name another object in the bucket.
      if (!MEDIA_KEY.test(key)) return;
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${prefix}${key}` }));
    },
  };
}
