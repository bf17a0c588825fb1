/**
 * Media items and albums → Slack's external upload flow: `files.getUploadURLExternal` per
 * file, the streamed byte upload, then one `files.completeUploadExternal` sharing every file
 * of the operation in one message (the album), with the caption as `initial_comment`. The
 * receipt id is the `ts` of the message the channel shows, read from the file's shares.
 * Only the completion can post anything: a failure of `files.getUploadURLExternal` or of the
 * byte upload posts nothing visible, so it is a certain failure (the engine resends the
 * operation), never an ambiguous one; only a completion that failed ambiguously is.
 */
import {
  type AlbumOperation,
  invisibleFailure,
  type LoadedMedia,
  type MediaOperation,
  type SentMessage,
} from "@outbox/core";
import type { SlackClient } from "./client.js";
import type { Conversations, Placement } from "./conversation.js";
import { toOutboxError } from "./errors.js";
import { uploadBytes } from "./upload-bytes.js";

/** Waits before each `files.info` look-up when the completion did not list the share yet. */
const SHARE_LOOKUP_DELAYS_MS = [0, 250, 500, 1000];

/** Upload one item (a voice note goes as an audio file; the engine already said so). */
export function sendMedia(client: SlackClient, conversations: Conversations, op: MediaOperation) {
  return sendFiles(client, conversations, op, [op.media], op.caption?.text);
}

/** Upload several items as one message. */
export function sendAlbum(client: SlackClient, conversations: Conversations, op: AlbumOperation) {
  return sendFiles(
    client,
    conversations,
    op,
    op.items.map((item) => item.media),
    op.caption?.text,
  );
}

async function sendFiles(
  client: SlackClient,
  conversations: Conversations,
  op: MediaOperation | AlbumOperation,
  items: LoadedMedia[],
  caption: string | undefined,
): Promise<SentMessage> {
  const place = await conversations.place(op);
  const files: Array<{ id: string; title: string }> = [];
  for (const media of items)
    files.push({ id: await upload(client, media, op.signal), title: media.fileName });
  let shares: FileShares | undefined;
  try {
    const res = await client.web.files.completeUploadExternal({
      files: files as [{ id: string; title: string }],
      channel_id: place.channel,
      ...(place.threadTs === undefined ? {} : { thread_ts: place.threadTs }),
      ...(caption === undefined || caption === "" ? {} : { initial_comment: caption }),
    });
    shares = (res.files?.[0] as { shares?: FileShares } | undefined)?.shares;
  } catch (error) {
    throw toOutboxError(error, "files.completeUploadExternal", place.role);
  }
  const first = files[0]?.id as string;
  const ts = shareTs(shares, place) ?? (await lookUpShare(client, first, place, op.signal));
  if (ts !== undefined) return { id: ts };
  return {
    id: first,
    degraded: {
      from: "message ts",
      to: "file id",
      reason: "Slack had not shared the file yet, so the receipt carries the file id",
    },
  };
}

async function upload(client: SlackClient, media: LoadedMedia, signal?: AbortSignal): Promise<string> {
  let target: { url: string; id: string };
  try {
    const res = await client.web.files.getUploadURLExternal({ filename: media.fileName, length: media.size });
    if (!res.upload_url || !res.file_id) throw new Error("files.getUploadURLExternal returned no upload_url");
    target = { url: res.upload_url, id: res.file_id };
  } catch (error) {
    throw invisibleFailure(toOutboxError(error, "files.getUploadURLExternal"));
  }
  try {
    await uploadBytes(client, target.url, media, signal);
  } catch (error) {
    throw invisibleFailure(toOutboxError(error, "upload"));
  }
  return target.id;
}

/** `shares.public|private[channel][]` of a file object. */
type FileShares = Partial<
  Record<"public" | "private", Record<string, Array<{ ts?: string; thread_ts?: string }>>>
>;

function shareTs(shares: FileShares | undefined, place: Placement): string | undefined {
  const list = [...(shares?.public?.[place.channel] ?? []), ...(shares?.private?.[place.channel] ?? [])];
  const inThread = list.find((share) => share.thread_ts === place.threadTs) ?? list[0];
  return inThread?.ts;
}

async function lookUpShare(
  client: SlackClient,
  file: string,
  place: Placement,
  signal?: AbortSignal,
): Promise<string | undefined> {
  for (const delay of SHARE_LOOKUP_DELAYS_MS) {
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    signal?.throwIfAborted();
    // The file is delivered already: a failed look-up (no files:read scope, …) must not fail the part.
    const res = await client.web.files.info({ file }).catch(() => undefined);
    if (res === undefined) return undefined;
    const ts = shareTs((res.file as { shares?: FileShares } | undefined)?.shares, place);
    if (ts !== undefined) return ts;
  }
  return undefined;
}
