/**
 * `POST /{phone-number-id}/media`: a multipart upload (read strictly by the kit's
 * `readStrictForm`) with `messaging_product=whatsapp`, the
 * declared `type` and the `file` part. The type must be one WhatsApp supports (error 100
 * listing them, as Graph answers) and must be what the bytes are (131053 otherwise); at most
 * 100 MB. Answers `{ id }`.
 */
import type { IncomingMessage } from "node:http";
import { multipartBoundary, type ReceivedForm, readStrictForm } from "@outbox/core/testing";
import type { Conversations } from "./conversations.js";
import { GraphApiError, invalidParameter } from "./graph-error.js";
import { matches, sniff, UPLOAD_TYPES } from "./media-types.js";

const MAX_UPLOAD = 100 * 1024 * 1024;
/** Leading bytes kept for sniffing. */
const HEAD_BYTES = 64;

/** Receive one upload into the number's media. */
export async function receiveUpload(req: IncomingMessage, ws: Conversations): Promise<{ id: string }> {
  let form: ReceivedForm;
  try {
    const boundary = multipartBoundary(req.headers["content-type"]);
    if (boundary === undefined) throw new Error("the body is not multipart/form-data with a boundary");
    form = await readStrictForm(req, boundary, { headBytes: HEAD_BYTES, maxFileBytes: MAX_UPLOAD });
  } catch (error) {
    throw new GraphApiError(131053, "Media upload error", `Malformed upload: ${(error as Error).message}.`);
  }
  if (form.fields.get("messaging_product") !== "whatsapp")
    throw invalidParameter("The parameter messaging_product is required and must be whatsapp.");
  const file = form.files.find((part) => part.name === "file");
  if (file === undefined) throw invalidParameter("The parameter file is required.");
  const declared =
    (form.fields.get("type") ?? file.contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!UPLOAD_TYPES.includes(declared))
    throw invalidParameter(
      `Param file must be a file with one of the following types: ${UPLOAD_TYPES.join(", ")}. Received file of type '${declared}'.`,
    );
  const sniffed = sniff(file.head);
  if (!matches(declared, sniffed))
    throw new GraphApiError(
      131053,
      "Media upload error",
      `The file was declared ${declared} but its bytes are ${sniffed ?? "of no known type"}.`,
    );
  const id = String(1_000_000_000_000_000 + ws.media.size + 1);
  ws.media.set(id, {
    id,
    declared,
    mimeType: declared,
    fileName: file.fileName,
    bytes: file.size,
    sha256: file.sha256,
  });
  return { id };
}
