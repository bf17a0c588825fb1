/** The delivery plan: text chunking, media kinds, albums, captions. Pure functions. */
export * from "./albums.js";
export * from "./build-plan.js";
export * from "./media-kind.js";
export * from "./message-parts.js";
export * from "./split-text.js";
export { uploadLimit } from "./travel.js";
export * from "./types.js";
