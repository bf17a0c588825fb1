/** Media hosts: where media a platform fetches by URL is put, and the self-hosted one. */
export { createDirectoryMediaStore } from "./directory-store.js";
export { contentDisposition } from "./disposition.js";
export {
  type MediaPutLimits,
  type PreparedMediaPut,
  positiveMs,
  prepareMediaPut,
  putFailure,
} from "./prepare-put.js";
export {
  createSelfHostedMedia,
  DEFAULT_HOSTED_TTL_MS,
  DEFAULT_SWEEP_EVERY_MS,
  type SelfHostedMedia,
  type SelfHostedMediaOptions,
} from "./self-hosted.js";
export { MEDIA_KEY, MIN_LINK_SECRET_BYTES } from "./signed-link.js";
export { type MediaHostServer, type StartMediaHostOptions, startMediaHost } from "./start-media-host.js";
export type * from "./types.js";
