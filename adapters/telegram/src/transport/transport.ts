/**
 * The Telegram transport: one grammY call per operation, errors mapped onto core's
 * classes. It never retries or sleeps: the engine does (and grammY's auto-retry must not
 * be installed on the `Api` handed in).
 */
import { type Capabilities, type SentMessage, type Transport, TransportError } from "@outbox/core";
import type { Api } from "grammy";
import type { KeepAlive } from "./keep-alive.js";
import { sendAlbum } from "./send-album.js";
import { sendMedia } from "./send-media.js";
import { sendText } from "./send-text.js";

/** Options of {@link createTelegramTransport}. */
export interface TelegramTransportOptions {
  /** What the adapter declares (the `byUrl` limits decide when Telegram fetches URLs itself). */
  capabilities: Capabilities;
  /** Show link previews under text messages. */
  linkPreview: boolean;
  /** The adapter's own keep-alive agent, when it built the `Api` (not for a client handed in). */
  keepAlive?: KeepAlive;
}

/** Build the transport over a grammY `Api`. */
export function createTelegramTransport(api: Api, options: TelegramTransportOptions): Transport {
  const guard = staleSocketGuard(options.keepAlive);
  return {
    sendText: (op) => guard(() => sendText(api, op, options.linkPreview)),
    sendMedia: (op) => guard(() => sendMedia(api, op, options.capabilities)),
    sendAlbum: (op) => guard(() => sendAlbum(api, op, options.capabilities)),
  };
}

/**
 * A reset on a reused keep-alive socket before any answer byte means the server had closed
 * the idle socket: nothing was processed, so the failure is reported as not ambiguous (retried).
 */
function staleSocketGuard(keepAlive: KeepAlive | undefined) {
  return async (call: () => Promise<SentMessage>): Promise<SentMessage> => {
    if (keepAlive === undefined) return call();
    const outcome = await keepAlive.track(call);
    if (outcome.ok) return outcome.value;
    const { error } = outcome;
    if (outcome.stale && error instanceof TransportError && error.ambiguous)
      throw new TransportError(
        `${error.message} (a reused keep-alive connection was closed by the server before any answer; safe to retry)`,
        { ambiguous: false, cause: error },
      );
    throw error;
  };
}
