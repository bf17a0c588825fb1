/** A platform descriptor over the conformance reference emulator, so tests can inject faults. */
import {
  createReferenceAdapter,
  REFERENCE_CHAT,
  ReferenceEmulator,
  referenceCapabilities,
} from "@outbox/conformance";
import type { AdapterDescriptor } from "@outbox/core";

/** The descriptor and its emulator. */
export function referencePlatform(): {
  descriptor: AdapterDescriptor;
  emulator: ReferenceEmulator;
  chat: string;
} {
  const emulator = new ReferenceEmulator(referenceCapabilities);
  const descriptor: AdapterDescriptor = {
    name: "reference",
    title: "Reference",
    packages: ["@outbox/conformance"],
    env: [
      { name: "OUTBOX_REFERENCE_TOKEN", field: "token", required: true, secret: true, help: "any value" },
    ],
    target: { description: "the reference chat", example: REFERENCE_CHAT },
    capabilities: referenceCapabilities,
    createAdapter: async (_config, media) => createReferenceAdapter({ emulator, media }),
    createEmulatedChannel: async (options = {}) => ({
      platform: "reference",
      adapter: createReferenceAdapter({ emulator, ...(options.media ? { media: options.media } : {}) }),
      target: { to: REFERENCE_CHAT },
      observe: () => emulator.observe(),
      inject: (fault) => emulator.inject(fault),
      emulator,
      close: async () => {},
    }),
  };
  return { descriptor, emulator, chat: REFERENCE_CHAT };
}
