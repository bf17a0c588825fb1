import {
  type LoadedMedia,
  type OperationBase,
  PlatformError,
  RateLimitedError,
  type SentMessage,
  TargetNotFoundError,
  type Transport,
  TransportError,
  UnsupportedFeatureError,
  urlFetchFailed,
} from "@outbox/core";
import {
  type EmulatorCall,
  type EmulatorFile,
  EmulatorRefusedError,
  EmulatorResetError,
  type EmulatorResponse,
  EmulatorTimeoutError,
  type ReferenceEmulator,
} from "./emulator.js";

/**
 * The reference transport: one emulator call per operation (edits and deletes included; the
 * engine calls them only when `capabilities.edits` is declared), media and albums after an
 * upload request, and the platform's answers mapped onto core's error classes. It never retries or sleeps (the engine does).
 */
export function createReferenceTransport(emulator: ReferenceEmulator): Transport {
  return {
    async sendText(op) {
      return sent(await call(emulator, { method: "sendText", text: op.text.text, ...place(op) }));
    },
    async sendMedia(op) {
      const file =
        op.url === undefined
          ? await uploaded(emulator, op.target.to, op.media)
          : await fetched(emulator, op.url, op.media);
      const caption = op.caption === undefined ? {} : { caption: op.caption.text };
      return sent(
        await call(emulator, { method: "sendMedia", kind: op.kind, file, ...caption, ...place(op) }),
      );
    },
    async sendAlbum(op) {
      answered("upload", emulator.upload(op.target.to, "album"));
      const items = await Promise.all(
        op.items.map(async (item) => ({
          kind: item.kind,
          file:
            item.url === undefined ? await upload(item.media) : await fetched(emulator, item.url, item.media),
        })),
      );
      const caption = op.caption === undefined ? {} : { caption: op.caption.text };
      return sent(await call(emulator, { method: "sendAlbum", items, ...caption, ...place(op) }));
    },
    async editText(op) {
      const { chat } = place(op);
      return sent(
        await call(emulator, { method: "editText", chat, messageId: op.messageId, text: op.text.text }),
      );
    },
    async deleteMessage(op) {
      await call(emulator, { method: "deleteMessage", chat: place(op).chat, messageId: op.messageId });
    },
  };
}

// --- internal ---

function place(op: OperationBase): { chat: string; replyTo?: string; thread?: string } {
  return {
    chat: op.target.to,
    ...(op.replyTo === undefined ? {} : { replyTo: op.replyTo }),
    ...(op.thread === undefined ? {} : { thread: op.thread }),
  };
}

/** The file as uploaded, after the upload request of its own. */
async function uploaded(
  emulator: ReferenceEmulator,
  chat: string,
  media: LoadedMedia,
): Promise<EmulatorFile> {
  answered("upload", emulator.upload(chat, "media"));
  return upload(media);
}

/** The file as the platform fetched it from `url`; a URL it cannot fetch fails the send as the platform's refusal. */
async function fetched(emulator: ReferenceEmulator, url: string, media: LoadedMedia): Promise<EmulatorFile> {
  try {
    return await emulator.fetchFile(url, media.fileName, media.mimeType);
  } catch (error) {
    throw urlFetchFailed("the reference platform", url, (error as Error).message, error);
  }
}

async function upload(media: LoadedMedia): Promise<EmulatorFile> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of media.open()) chunks.push(chunk);
  return { name: media.fileName, mimeType: media.mimeType, bytes: Buffer.concat(chunks) };
}

/**
 * One call; a dropped connection or a timeout is an ambiguous `TransportError`, a connection
 * refused before the call was written a certain one, refusals become core errors.
 */
async function call(
  emulator: ReferenceEmulator,
  request: EmulatorCall,
): Promise<EmulatorResponse & { ok: true }> {
  let response: EmulatorResponse;
  try {
    response = await emulator.call(request);
  } catch (error) {
    if (error instanceof EmulatorResetError || error instanceof EmulatorTimeoutError)
      throw new TransportError(`${request.method}: ${error.message}`, { ambiguous: true, cause: error });
    if (error instanceof EmulatorRefusedError)
      throw new TransportError(`${request.method}: connection refused`, { ambiguous: false, cause: error });
    throw error;
  }
  return answered(request.method, response);
}

/** An answer of the platform to `method`: its ids, or the refusal as core's error. */
function answered(method: string, response: EmulatorResponse): EmulatorResponse & { ok: true } {
  if (response.ok) return response;
  const { status, description } = response;
  const message = `${method}: ${status} ${description}`;
  if (status === 429) throw new RateLimitedError(message, response.retryAfterMs ?? 1000);
  if (description === "message to be replied not found") throw new TargetNotFoundError(message, "reply");
  if (description === "message thread not found") throw new TargetNotFoundError(message, "thread");
  if (description === "chat not found") throw new TargetNotFoundError(message, "chat");
  if (description === "VOICE_FORMAT_UNSUPPORTED") throw new UnsupportedFeatureError("voice", message);
  throw new PlatformError(message, { method, status, description });
}

function sent(response: { ids: string[] }): SentMessage {
  const [id = ""] = response.ids;
  return response.ids.length > 1 ? { id, memberIds: response.ids } : { id };
}
