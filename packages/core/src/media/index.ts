/** Media loading: loadMedia and its policy. */
export { cleanFileName, MAX_FILE_NAME_BYTES, multipartFileName } from "./file-name.js";
export * from "./host/index.js";
export { loadMedia } from "./load-media.js";
export { decodeOpusPeaks, downsamplePeaks, type OpusPeaks } from "./opus-peaks.js";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT_MS } from "./policy.js";
export { kindOfMimeType, normalizeMimeType } from "./sniff/mime.js";
export * from "./types.js";
export { urlFetchFailed } from "./url-fetch-failed.js";
