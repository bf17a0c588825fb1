/**
 * `text` cut into deltas of `size` characters, as a model streams it, in one pass. Slicing a
 * long string built by concatenation delta by delta can copy it whole on every slice in
 * some engine states (seen under vitest: 16 s for 256 KB), which would make a linear-cost
 * test's own loop quadratic and blame the code under test.
 */
export function deltasOf(text: string, size: number): string[] {
  return text.match(new RegExp(`[\\s\\S]{1,${size}}`, "g")) ?? [];
}
