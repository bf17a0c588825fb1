/** Testing tools for the Matrix adapter: the strict homeserver emulator and a ready emulated room. No test framework at run time. */
export { createEmulatedChannel, type MatrixEmulatedChannel } from "./channel.js";
export { MatrixApiError } from "./emulator/api-error.js";
export { type DecodedHtml, decodeHtml } from "./emulator/html.js";
export {
  MATRIX_FAULT_TARGETS,
  type MatrixEmulator,
  type MatrixEmulatorRequest,
  startMatrixEmulator,
} from "./emulator/server.js";
export type { StoredEvent } from "./emulator/store.js";
export {
  BOT_USER,
  DEFAULT_ROOM,
  type EmulatedMatrixRoom,
  type EmulatorRateLimit,
  type MatrixEmulatorOptions,
} from "./emulator/types.js";
