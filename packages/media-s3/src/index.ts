/** @outbox/media-s3: a media host on S3-compatible object storage (AWS S3, Cloudflare R2, MinIO). */
export {
  createS3MediaHost,
  MAX_PRESIGNED_TTL_MS,
  MIN_PART_SIZE,
  type S3MediaHostOptions,
} from "./s3-media-host.js";
