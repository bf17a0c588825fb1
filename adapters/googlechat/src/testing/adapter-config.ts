/** The adapter settings that point a Google Chat adapter at an emulator. */
import type { GoogleChatAdapterConfig } from "../types.js";
import type { GoogleChatEmulator } from "./emulator/server.js";

/** Key (with the emulator's `token_uri`), API root and media host of `emulator`, as adapter settings. */
export function emulatorConfig(emulator: GoogleChatEmulator): GoogleChatAdapterConfig {
  return {
    credentials: { ...emulator.credentials } as GoogleChatAdapterConfig["credentials"] & object,
    apiUrl: emulator.apiUrl,
    media: { host: emulator.mediaHost },
  };
}
