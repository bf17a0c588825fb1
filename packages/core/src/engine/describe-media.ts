/**
 * Media as a plan sees it: `ChannelAdapter.plan` makes no network call and reads no file, so
 * a URL or a file is described from its name, and only bytes already in hand are loaded.
 */
import { basename } from "node:path";
import type { Capabilities } from "../adapter/types.js";
import { kindOfMimeType, mimeTypeFromFileName, normalizeMimeType } from "../media/sniff/mime.js";
import type { LoadedMedia, MediaPolicy } from "../media/types.js";
import type { MediaAttachment, ReplyPayload } from "../payload/types.js";
import type { MediaInput } from "../plan/types.js";
import { loadOne, refusedInput, uploadPolicy } from "./load-media-inputs.js";

/** The media of a described payload, and which of them were described without their bytes. */
export interface DescribedMedia {
  /** One input per reference, in the order `loadMediaInputs` gives them. */
  inputs: MediaInput[];
  /** The items whose bytes were not read (a URL, a file): planned as if they load and fit. */
  unloaded: WeakSet<LoadedMedia>;
}

/**
 * Describe every media reference of `payload` the way `loadMediaInputs` would load it, with
 * no network call and no file read. An https URL or a file (a path, a `file:` URL, an
 * attachment's `filePath`) is described from its name: the MIME type is the declared one or
 * the file extension's (`application/octet-stream`, a document, without either) and the size
 * counts as fitting every limit. Inline bytes (`data`, `base64`, a `data:` URI) and
 * references the loader refuses by their form alone go through the loader, as in `send`.
 */
export async function describeMediaInputs(
  payload: ReplyPayload,
  capabilities: Capabilities,
  policy: MediaPolicy | undefined,
): Promise<DescribedMedia> {
  const unloaded = new WeakSet<LoadedMedia>();
  const effective = uploadPolicy(capabilities, policy, undefined);
  const refs: Array<string | MediaAttachment> = [...payload.mediaUrls, ...payload.media];
  const inputs = await Promise.all(
    refs.map(async (ref): Promise<MediaInput> => {
      const named = unreadReference(ref);
      if (named === undefined) return loadOne(ref, effective);
      unloaded.add(named);
      return { status: "loaded", media: named };
    }),
  );
  return { inputs: [...inputs, ...(payload.refusedMedia ?? []).map(refusedInput)], unloaded };
}

/** The description of a reference whose bytes are behind the network or the disk, else `undefined`. */
function unreadReference(ref: string | MediaAttachment): LoadedMedia | undefined {
  if (typeof ref === "object")
    return ref.filePath === undefined ? undefined : named(ref.filePath, ref.mimeType);
  const trimmed = ref.trim();
  if (/^https:/i.test(trimmed)) {
    // A URL that does not parse is the loader's to refuse, as in `send` (it never gets fetched).
    if (!URL.canParse(trimmed)) return undefined;
    return named(pathOf(new URL(trimmed)), undefined, { type: "url", url: trimmed });
  }
  return /^([a-z][a-z0-9+.-]+):/i.test(trimmed) && !/^file:/i.test(trimmed) ? undefined : named(trimmed);
}

/** A URL's path, percent-decoded when it decodes (the text is attacker-controlled). */
function pathOf(url: URL): string {
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return url.pathname;
  }
}

function named(path: string, declared?: string, source?: LoadedMedia["source"]): LoadedMedia {
  const fileName = basename(path) || "file";
  const mimeType =
    normalizeMimeType(declared) ?? mimeTypeFromFileName(fileName) ?? "application/octet-stream";
  return {
    kind: kindOfMimeType(mimeType),
    mimeType,
    fileName,
    size: 0,
    source: source ?? { type: "file", path },
    open: unread,
  };
}

/** The bytes of an item a plan did not load: reading them fails (identity then goes by name). */
async function* unread(): AsyncGenerator<Uint8Array> {
  yield* [];
  throw new Error("not loaded: a plan reads no media");
}
