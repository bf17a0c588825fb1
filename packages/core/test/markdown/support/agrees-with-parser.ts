import fc from "fast-check";
import type { Root } from "mdast";
import { expect } from "vitest";

/**
 * Check a shortcut front end of the parser on `texts`: every tree `front` answers with is
 * `parsed`'s tree of the same text. `seen` is shown each tree answered, before the check (to
 * count the shapes the run reached). Returns how many texts it answered.
 */
export function agreesWithParser(
  front: (text: string) => Root | undefined,
  parsed: (text: string) => Root,
  texts: fc.Arbitrary<string>,
  options: fc.Parameters<[string]>,
  seen?: (tree: Root) => void,
): number {
  let answered = 0;
  fc.assert(
    fc.property(texts, (text) => {
      const tree = front(text);
      if (tree === undefined) return;
      answered += 1;
      seen?.(tree);
      expect(tree).toEqual(parsed(text));
    }),
    options,
  );
  return answered;
}
