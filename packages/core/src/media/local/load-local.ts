/**
 * Loading a local file: containment, regular files only, size cap, type from the head
 * (and the tail for OGG durations), and a re-openable stream that re-reads the same file.
 */
import { constants, type Stats } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { basename } from "node:path";
import { MediaError } from "../../errors/errors.js";
import { assertWithinCap, limitBytes } from "../byte-limit.js";
import type { ResolvedPolicy } from "../policy.js";
import { HEAD_BYTES, inspectMedia } from "../sniff/inspect.js";
import { isOggHead, OGG_TAIL_BYTES } from "../sniff/ogg-duration.js";
import type { LoadedMedia } from "../types.js";
import { assertOpenedInside } from "./opened-path.js";
import { resolveLocalPath } from "./resolve-path.js";

/** What re-opening needs to prove it reads the file that was checked. */
interface Checked {
  /** The reference as given, for messages. */
  ref: string;
  /** The real path that was checked. */
  path: string;
  /** Its stats when checked. */
  stats: Stats;
  /** Real paths of the allowed roots. */
  roots: readonly string[];
  /** The policy (for messages naming the roots). */
  policy: ResolvedPolicy;
}

/** Never follow a final symlink, never block on a FIFO swapped in after the check. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Stream chunk size. */
const CHUNK_BYTES = 64 * 1024;

function describe(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

function notRegular(ref: string, stats: Stats): MediaError {
  return new MediaError(
    "blocked",
    `Local media path ${ref} is ${describe(stats)}; only regular files can be sent.`,
    {
      ref,
    },
  );
}

/**
 * Opens the checked file again and makes sure it is still the same regular file, and
 * (where the platform can tell) that the descriptor lies inside the roots.
 */
async function reopen({ ref, path, stats: checked, roots, policy }: Checked): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    throw new MediaError("not-found", `Local media file ${ref} can no longer be opened.`, {
      ref,
      cause: error,
    });
  }
  try {
    await assertOpenedInside(handle.fd, ref, roots, policy);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const now = await handle.stat();
  if (!now.isFile() || now.ino !== checked.ino || now.dev !== checked.dev) {
    await handle.close();
    throw new MediaError(
      "blocked",
      `Local media file ${ref} was replaced after it was checked; load it again.`,
      {
        ref,
      },
    );
  }
  return handle;
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

async function* streamFile(checked: Checked): AsyncGenerator<Uint8Array> {
  if (checked.stats.size === 0) return;
  const handle = await reopen(checked);
  try {
    yield* handle.createReadStream({ start: 0, end: checked.stats.size - 1, highWaterMark: CHUNK_BYTES });
  } catch (error) {
    throw new MediaError("fetch-failed", `Reading local media file ${checked.ref} failed.`, {
      ref: checked.ref,
      cause: error,
    });
  }
}

/** Loads a local file under the policy. `declaredMime` comes from a `MediaAttachment`. */
export async function loadLocal(
  ref: string,
  policy: ResolvedPolicy,
  options: { declaredMime?: string; fileName?: string } = {},
): Promise<LoadedMedia> {
  const { path, roots } = await resolveLocalPath(ref, policy);
  const checked = await stat(path).catch((error: unknown) => {
    throw new MediaError("not-found", `Local media file ${ref} can no longer be read.`, {
      ref,
      cause: error,
    });
  });
  if (!checked.isFile()) throw notRegular(ref, checked);
  const limit = { ref, maxBytes: policy.maxBytes, expectedSize: checked.size };
  assertWithinCap(checked.size, limit);
  const target: Checked = { ref, path, stats: checked, roots, policy };
  const handle = await reopen(target);
  let head: Uint8Array;
  let tail: Uint8Array;
  try {
    head = await readAt(handle, 0, Math.min(checked.size, HEAD_BYTES));
    tail =
      isOggHead(head) && checked.size > head.length
        ? await readAt(
            handle,
            Math.max(0, checked.size - OGG_TAIL_BYTES),
            Math.min(checked.size, OGG_TAIL_BYTES),
          )
        : head;
  } finally {
    await handle.close();
  }
  const inspection = await inspectMedia({
    ref,
    head,
    tail,
    fileName: options.fileName ?? basename(path),
    ...(options.declaredMime === undefined ? {} : { declaredMime: options.declaredMime }),
  });
  return {
    ...inspection,
    size: checked.size,
    source: { type: "file", path },
    open: () => limitBytes(streamFile(target), limit),
  };
}
