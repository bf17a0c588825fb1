/** The delivery engine: createAdapter, plan execution, retries, pacing, once-only stores. */

export { createAdapter } from "../adapter/create-adapter.js";
export { parseReplyMarkdown } from "../markdown/parse-reply-markdown.js";
export {
  createPlainRenderer,
  type PlainRendererOptions,
  type PlainTextOptions,
  toPlainText,
} from "../markdown/plain-text.js";
export type { Spoiler } from "../markdown/spoiler-node.js";
export * from "../plan/index.js";
export { validateCapabilities } from "./capabilities.js";
export { createManualClock, type ManualClock, systemClock } from "./clock.js";
export { createFileStore } from "./file-store.js";
export { JOURNAL_VERSION } from "./journal-version.js";
export { createMediaMemory, type KnownMedia, type MediaMemory } from "./media-memory.js";
export { createMemoryStore } from "./memory-store.js";
export { invisibleFailure, isAmbiguous } from "./retry.js";
