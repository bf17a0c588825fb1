/** The adapter settings that point a Teams adapter at an emulator. */
import type { TeamsAdapterConfig } from "../types.js";
import type { TeamsEmulator } from "./emulator/server.js";

/** Identity, token endpoint, connector and media host of `emulator`, as adapter settings. */
export function emulatorConfig(emulator: TeamsEmulator): TeamsAdapterConfig {
  return {
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    tenantId: emulator.tenantId,
    tokenUrl: emulator.tokenUrl,
    serviceUrl: emulator.serviceUrl,
    media: { host: emulator.mediaHost },
  };
}
