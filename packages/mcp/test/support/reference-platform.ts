/** A platform entry over the conformance reference emulator, so tests can inject faults. */
import {
  createReferenceAdapter,
  REFERENCE_CHAT,
  ReferenceEmulator,
  referenceCapabilities,
} from "@outbox/conformance";
import type { McpPlatform } from "../../src/index.js";

/** The entry and its emulator. */
export function referencePlatform(): { platform: McpPlatform; emulator: ReferenceEmulator; chat: string } {
  const emulator = new ReferenceEmulator(referenceCapabilities);
  const platform: McpPlatform = {
    tokenEnv: "OUTBOX_REFERENCE_TOKEN",
    packages: "@outbox/conformance",
    connect: async (_token, media) => createReferenceAdapter({ emulator, media }),
    emulate: async (options) => ({
      platform: "reference",
      adapter: createReferenceAdapter({ emulator, ...(options.media ? { media: options.media } : {}) }),
      target: { to: REFERENCE_CHAT },
      observe: () => emulator.observe(),
      inject: (fault) => emulator.inject(fault),
      emulator,
      close: async () => {},
    }),
  };
  return { platform, emulator, chat: REFERENCE_CHAT };
}
