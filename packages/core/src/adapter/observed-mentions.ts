/**
 * Building an {@link ObservedMentions} in an emulator (the kit's shared piece, so every
 * emulator records notifications the same way): absent when nobody was notified, ids
 * listed once, in the order first seen.
 */
import type { ObservedMentions } from "./observed.js";

/** The mentions of a message that notified the room (`everyone`) and/or these ids; `undefined` when nobody. */
export function observedMentions(everyone: boolean, ids: Iterable<string>): ObservedMentions | undefined {
  const users = [...new Set(ids)];
  if (!everyone && users.length === 0) return undefined;
  return { ...(everyone ? { everyone } : {}), ...(users.length > 0 ? { users } : {}) };
}

/** Both notifications together (an edit's add to its message's); `undefined` when nobody. */
export function mergeMentions(
  a: ObservedMentions | undefined,
  b: ObservedMentions | undefined,
): ObservedMentions | undefined {
  return observedMentions(a?.everyone === true || b?.everyone === true, [
    ...(a?.users ?? []),
    ...(b?.users ?? []),
  ]);
}
