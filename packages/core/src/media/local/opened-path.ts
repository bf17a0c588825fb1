/**
 * Proof that an opened descriptor lies inside the roots. The path check happens before
 * the open, so a parent directory swapped for a symlink in between would lead outside
 * (`O_NOFOLLOW` guards only the last component). On Linux the kernel names the file a
 * descriptor really refers to at `/proc/self/fd/N`; that path is checked after opening.
 */
import { readlink } from "node:fs/promises";
import { MediaError } from "../../errors/errors.js";
import type { ResolvedPolicy } from "../policy.js";
import { inside, outsideRoots } from "./resolve-path.js";

/** Whether this platform can name the file behind a descriptor (`/proc/self/fd`). */
export const CAN_NAME_DESCRIPTORS = process.platform === "linux";

/**
 * Refuses (`blocked`) when the file behind `fd` is outside every real root. On Linux an
 * unreadable `/proc/self/fd` refuses too (fail closed); elsewhere the check before the open
 * and the same-inode check are all there is (see docs/media.md).
 */
export async function assertOpenedInside(
  fd: number,
  ref: string,
  roots: readonly string[],
  policy: ResolvedPolicy,
): Promise<void> {
  if (!CAN_NAME_DESCRIPTORS) return;
  let opened: string;
  try {
    opened = await readlink(`/proc/self/fd/${fd}`);
  } catch (error) {
    throw new MediaError(
      "blocked",
      `Local media file ${ref} was opened but /proc/self/fd cannot confirm where it lies; mount /proc to send local files.`,
      { ref, cause: error },
    );
  }
  if (!roots.some((root) => inside(opened, root))) throw outsideRoots(ref, policy);
}
