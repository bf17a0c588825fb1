/**
 * The journal's format version. A journal outlives the process that wrote it (a file store,
 * Redis), so a release must read the journals an earlier one left and must not guess at a
 * later one's: reading a newer format as an older one could send its parts twice.
 */
import type { DeliveryJournal } from "../adapter/types.js";
import { StoreError } from "../errors/errors.js";

/**
 * The format this release writes and the newest it reads. Version 1 is the format of the
 * releases before the field existed: their journals carry no `version` and are read as 1.
 */
export const JOURNAL_VERSION = 1;

/**
 * A stored journal ready to resume from, stamped with {@link JOURNAL_VERSION}.
 * @throws StoreError for a version this release does not know (a newer release wrote it, or
 * it is not a version at all), before anything is sent.
 */
export function resumableJournal(stored: DeliveryJournal, key: string): DeliveryJournal {
  const version: unknown = stored.version ?? 1;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1 || version > JOURNAL_VERSION)
    throw new StoreError(
      `The delivery journal of idempotencyKey ${JSON.stringify(key)} has version ${JSON.stringify(version)}; this release of @outbox/core reads versions 1 to ${JOURNAL_VERSION}. Resume it with the release that wrote it (resuming it here could send its parts twice), or use a new key.`,
    );
  return version === stored.version ? stored : { ...stored, version: JOURNAL_VERSION };
}
