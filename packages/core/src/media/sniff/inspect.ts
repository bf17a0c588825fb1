/**
 * What a media item is: its MIME type (bytes first, then the file name, then what the
 * producer or server declared), its kind, and the cheap extras adapters need.
 */
import { MediaError } from "../../errors/errors.js";
import { cleanFileName } from "../file-name.js";
import type { MediaKind } from "../types.js";
import { readImageSize } from "./image-size.js";
import {
  extensionForMimeType,
  fileExtension,
  isGenericMimeType,
  kindOfMimeType,
  mimeTypeFromFileName,
  normalizeMimeType,
} from "./mime.js";
import { readMp4Video } from "./mp4-video.js";
import { readOggDurationMs } from "./ogg-duration.js";

/** How many leading bytes are inspected (file-type needs 4 100; JPEG frame headers may follow EXIF). */
export const HEAD_BYTES = 65_536;

/** The bytes and names an inspection works from. */
export interface InspectInput {
  /** The reference, for error messages. */
  ref: string;
  /** The first bytes ({@link HEAD_BYTES} or the whole item when smaller). */
  head: Uint8Array;
  /** The last bytes, when known (for the OGG duration); the whole item when it fits in `head`. */
  tail?: Uint8Array;
  /**
   * The file name as given or found (any source): cleaned by {@link cleanFileName}, then
   * used to fall back on (extension) and to present. When nothing of it is left, the item
   * is named after its kind (`image.png`).
   */
  fileName?: string;
  /** MIME type declared by the producer: checked against the bytes. */
  declaredMime?: string;
  /** MIME type from an HTTP `content-type` header: used only when nothing better is known. */
  headerMime?: string;
}

/** What an inspection found. */
export interface Inspection {
  /** Normalized MIME type. */
  mimeType: string;
  /** Media kind. */
  kind: MediaKind;
  /** File name, cleaned, with an extension added when it had none. */
  fileName: string;
  /** Image or video width, when known. */
  width?: number;
  /** Image or video height, when known. */
  height?: number;
  /** Duration in milliseconds, when known. */
  durationMs?: number;
}

/** Kinds that may stand in for each other in a declaration (a GIF declared as an image). */
function family(kind: MediaKind): string {
  return kind === "animation" ? "image" : kind;
}

// file-type is loaded on the first media item: replies without media never pay its start-up.
// The import is kept, not repeated: a dynamic import of a loaded module still goes through the
// module loader (and any loader hooks) on every call, which cost about 0.3 ms per media item.
let fileType: Promise<typeof import("file-type/core")> | undefined;
const loadFileType = () => {
  fileType ??= import("file-type/core");
  return fileType;
};

/**
 * The sniffed type, unless it is a container (zip, CFB) whose extension names a more
 * precise application format (`.docx`, `.xls`). A truncated container that file-type
 * cannot walk counts as unknown.
 */
async function sniff(head: Uint8Array, fromName: string | undefined): Promise<string | undefined> {
  const { fileTypeFromBuffer } = await loadFileType();
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  const sniffed = normalizeMimeType(found?.mime);
  const container = sniffed === "application/zip" || sniffed === "application/x-cfb";
  return container && fromName?.startsWith("application/") ? fromName : sniffed;
}

/**
 * Determines the MIME type and kind of an item from its first bytes. An item is an image,
 * animation, audio or video only when its bytes are recognised as one: otherwise it is a
 * `document` typed `application/octet-stream`, whatever its name or `content-type` say
 * (HTML or script served as `image/png`). Throws `MediaError("unsupported-type")` when a
 * declared type contradicts the bytes: a PNG declared as `audio/ogg`, or unrecognised
 * bytes declared as an image, audio or video type.
 */
export async function inspectMedia(input: InspectInput): Promise<Inspection> {
  const given = cleanFileName(input.fileName ?? "");
  const fromName = mimeTypeFromFileName(given);
  const sniffed = await sniff(input.head, fromName);
  const declared = normalizeMimeType(input.declaredMime);
  if (sniffed !== undefined && declared !== undefined && !isGenericMimeType(declared)) {
    if (family(kindOfMimeType(declared)) !== family(kindOfMimeType(sniffed))) {
      throw new MediaError(
        "unsupported-type",
        `Media ${input.ref} was declared as ${declared} but its bytes are ${sniffed}; fix the declared mimeType.`,
        { ref: input.ref },
      );
    }
  }
  const header = normalizeMimeType(input.headerMime);
  let mimeType =
    sniffed ??
    fromName ??
    [declared, header].find((mime) => mime !== undefined && !isGenericMimeType(mime)) ??
    "application/octet-stream";
  if (sniffed === undefined && kindOfMimeType(mimeType) !== "document") {
    if (declared !== undefined && kindOfMimeType(declared) !== "document") {
      throw new MediaError(
        "unsupported-type",
        `Media ${input.ref} was declared as ${declared} but its bytes are not a recognised ${family(kindOfMimeType(declared))} format; fix the file, or declare application/octet-stream to send it as a document.`,
        { ref: input.ref },
      );
    }
    mimeType = "application/octet-stream";
  }
  const kind = kindOfMimeType(mimeType);
  const named = given === "" ? kind : given;
  const fileName =
    fileExtension(named) === undefined ? cleanFileName(`${named}.${extensionForMimeType(mimeType)}`) : named;
  const result: Inspection = { mimeType, kind, fileName };
  const size = readImageSize(mimeType, input.head);
  if (size !== undefined) Object.assign(result, size);
  if (mimeType === "video/mp4" || mimeType === "video/quicktime") {
    const video = readMp4Video(input.head);
    if (video !== undefined) Object.assign(result, video);
  }
  if (mimeType === "audio/ogg" && input.tail !== undefined) {
    const durationMs = readOggDurationMs(input.head, input.tail);
    if (durationMs !== undefined) result.durationMs = durationMs;
  }
  return result;
}
