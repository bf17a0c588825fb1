/**
 * Hostile reply text: Markdown an attacker steering a model can make it write, within
 * Outbox's 1 MB limit, built to find work that grows faster than the text (runs of markers,
 * alternating markers, deep containers, long lines, many tiny blocks, storms of links,
 * emphasis and code spans). The parse bench, the conformance suite's `untrusted.size` cases
 * and the planners' growth tests read the same families.
 */

/** Repeat units made by `make(i)` until the text has `size` characters, cut to exactly `size`. */
export function fill(size: number, make: (i: number) => string): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i += 1) {
    const part = make(i);
    parts.push(part);
    length += part.length;
  }
  return parts.join("").slice(0, size);
}

/** A hostile family: a text of about `size` UTF-16 units. */
export type HostileFamily = (size: number) => string;

/** Every hostile family, by name. */
export const hostileMarkdown = {
  /** `*a*a*a…`: one paragraph of as many emphasis nodes as the text allows. */
  "marker runs": (size) => "*a".repeat(Math.floor(size / 2)),
  /** `*_*_…x…_*_*`: openers and closers of two kinds, alternating. */
  "alternating markers": (size) => {
    const half = Math.max(1, Math.floor(size / 4));
    return `${"*_".repeat(half)}x${"_*".repeat(half - 1)}`;
  },
  /** `> x` lines: one quote holding one paragraph of as many lines as fit. */
  "quoted lines": (size) => "> x\n".repeat(Math.floor(size / 4)),
  /** `> > > … deep text`: quotes nested far past any parser's nesting limit. */
  "deep quotes": (size) => `${"> ".repeat(Math.max(0, Math.floor((size - 9) / 2)))}deep text`,
  /** `> - > - … deep text`: quotes and list items alternating, as deep. */
  "deep mixed containers": (size) => `${"> - ".repeat(Math.max(0, Math.floor((size - 9) / 4)))}deep text`,
  /** A list whose every item is nested one level deeper than the last. */
  "deep lists": (size) => fill(size, (i) => `${"  ".repeat(i)}- item ${i}\n`),
  /** One word with no place to cut. */
  "long unbroken line": (size) => "a".repeat(size),
  /** `x` paragraphs: as many blocks as the text allows. */
  "many tiny blocks": (size) => fill(size, () => "x\n\n"),
  /** Links one after another. */
  "link storm": (size) => fill(size, (i) => `[l${i % 10}](https://example.com/${i % 10}) `),
  /** Bold and italic words one after another. */
  "emphasis storm": (size) => fill(size, () => "**b** _i_ "),
  /** Code spans one after another. */
  "code-span storm": (size) => fill(size, () => "`c` "),
} satisfies Record<string, HostileFamily>;

/** The name of a hostile family. */
export type HostileFamilyName = keyof typeof hostileMarkdown;
