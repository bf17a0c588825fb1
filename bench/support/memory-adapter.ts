/** An adapter over a transport that holds nothing and answers at once: the engine's own work, no network. */
import {
  type Capabilities,
  type ChannelAdapter,
  createAdapter,
  createPlainRenderer,
  type Transport,
} from "@outbox/core";
import { testCapabilities } from "../../packages/core/test/engine/support/recording-transport.js";

/**
 * A plain-text adapter with a 4 096-character limit (and `capabilities` over that) on an
 * in-memory transport: sends answer with fresh ids; edits (counted through `onEdit`, and
 * offered only with it) keep the message's id.
 */
export function memoryAdapter(capabilities: Partial<Capabilities>, onEdit?: () => void): ChannelAdapter {
  let ids = 0;
  const transport: Transport = {
    sendText: async () => ({ id: String(++ids) }),
    sendMedia: async () => ({ id: String(++ids) }),
    sendAlbum: async (op) => ({ id: String(++ids), memberIds: op.items.map(() => String(++ids)) }),
    ...(onEdit === undefined
      ? {}
      : {
          editText: async (op) => {
            onEdit();
            return { id: op.messageId };
          },
        }),
  };
  return createAdapter({
    name: "bench",
    capabilities: testCapabilities({ text: { maxLength: 4096, format: "plain" }, ...capabilities }),
    renderer: createPlainRenderer(),
    transport,
  });
}
