/**
 * Media go to the content repository first (`POST /_matrix/media/v3/upload`, streamed from
 * the source with its length). An upload is not idempotent, so its `mxc://` URI is kept for
 * the operation: a retry after the event send failed reuses it instead of storing the file twice.
 */
import type { MediaOperation } from "@outbox/core";
import type { MatrixClient } from "../client/matrix-client.js";
import { toOutboxError } from "./errors.js";

const uploaded = new WeakMap<MediaOperation, string>();

/** The `mxc://` URI of the operation's item, uploaded once. */
export async function uploadOnce(client: MatrixClient, op: MediaOperation, room: string): Promise<string> {
  const known = uploaded.get(op);
  if (known !== undefined) return known;
  const { media } = op;
  let mxc: string;
  try {
    mxc = await client.upload(
      media.open(),
      { contentType: media.mimeType, fileName: media.fileName, length: media.size },
      op.signal,
    );
  } catch (error) {
    throw toOutboxError(error, { route: "POST /_matrix/media/v3/upload", room, upload: true });
  }
  uploaded.set(op, mxc);
  return mxc;
}
