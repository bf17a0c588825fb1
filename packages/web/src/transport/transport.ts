/**
 * The web transport: each operation becomes a message appended to the store (media bytes
 * stored by sha256 first). The store pushes it to connected browsers.
 */
import { createHash, randomUUID } from "node:crypto";
import {
  type AlbumOperation,
  type LoadedMedia,
  type MediaKind,
  type OperationBase,
  type SentMessage,
  TargetNotFoundError,
  type Transport,
} from "@outbox/core";
import type { WebMedia, WebMediaKind, WebMessage, WebMessageStore } from "../store/types.js";

/** Build the transport that writes into `store`; `now` stamps `createdAt`. */
export function createWebTransport(store: WebMessageStore, now: () => Date = () => new Date()): Transport {
  const append = async (
    op: OperationBase,
    fields: Pick<WebMessage, "kind"> & Partial<WebMessage>,
  ): Promise<SentMessage> => {
    const message: WebMessage = {
      id: randomUUID(),
      conversation: op.target.to,
      author: "assistant",
      createdAt: now().toISOString(),
      ...(op.replyTo === undefined ? {} : { replyTo: op.replyTo }),
      ...(op.thread === undefined ? {} : { thread: op.thread }),
      ...fields,
    };
    await store.append(message);
    return { id: message.id };
  };
  /** A reply must reference a message the conversation holds, as on any platform. */
  const checkReply = async (op: OperationBase) => {
    if (op.replyTo !== undefined && (await store.get(op.target.to, op.replyTo)) === undefined)
      throw new TargetNotFoundError(
        `conversation ${op.target.to} holds no message ${op.replyTo} to reply to`,
        "reply",
      );
  };
  const put = (op: OperationBase, kind: MediaKind | "voice", media: LoadedMedia) =>
    storeMedia(store, op.target.to, webMediaKind(kind), media, op.signal);

  return {
    async sendText(op) {
      await checkReply(op);
      return append(op, { kind: "text", html: op.text.text });
    },
    async sendMedia(op) {
      await checkReply(op);
      const item = await put(op, op.kind, op.media);
      return append(op, { kind: item.kind, media: [item], ...(op.caption ? { html: op.caption.text } : {}) });
    },
    async sendAlbum(op: AlbumOperation) {
      await checkReply(op);
      const items: WebMedia[] = [];
      for (const item of op.items) items.push(await put(op, item.kind, item.media));
      return append(op, { kind: "album", media: items, ...(op.caption ? { html: op.caption.text } : {}) });
    },
  };
}

/** The figure kind for an operation kind (an animation shows as an image). */
function webMediaKind(kind: MediaKind | "voice"): WebMediaKind {
  return kind === "animation" ? "image" : kind;
}

async function storeMedia(
  store: WebMessageStore,
  conversation: string,
  kind: WebMediaKind,
  media: LoadedMedia,
  signal: AbortSignal | undefined,
): Promise<WebMedia> {
  const chunks: Uint8Array[] = [];
  const hash = createHash("sha256");
  for await (const chunk of media.open()) {
    signal?.throwIfAborted();
    hash.update(chunk);
    chunks.push(chunk);
  }
  const data = Buffer.concat(chunks);
  const sha256 = hash.digest("hex");
  await store.putMedia(conversation, sha256, { mimeType: media.mimeType, fileName: media.fileName, data });
  return {
    kind,
    fileName: media.fileName,
    mimeType: media.mimeType,
    sha256,
    bytes: data.byteLength,
    ...(media.durationMs === undefined ? {} : { durationMs: media.durationMs }),
    ...(media.width === undefined ? {} : { width: media.width }),
    ...(media.height === undefined ? {} : { height: media.height }),
  };
}
