/**
 * One rule for a declared type against the bytes, the same for every format on the
 * allowlist: bytes of a recognised format must be that format (ZIP bytes declared as a PDF
 * or JSON are refused, as a PNG declared as a PDF is); a type with no signature (plain
 * text, Markdown, HTML, CSV, JSON) must not hold the bytes of a recognised format; a
 * format with a signature must have it (`%PDF-` for a PDF).
 */
import { MediaError } from "@outbox/core";

/** Declared types whose bytes a recognised format may share: the declared one is kept. */
const SAME_BYTES: ReadonlyArray<readonly string[]> = [
  ["audio/mp4", "video/mp4"],
  ["application/gzip", "application/x-compressed-tar"],
  ["audio/ogg", "audio/opus"],
];

/** Types with no signature to check: text. */
const UNSIGNED = new Set(["text/plain", "text/markdown", "text/html", "text/csv", "application/json"]);

/** Whether two types name the same bytes (equal, or one of {@link SAME_BYTES}). */
export function sameFormat(a: string, b: string): boolean {
  return a === b || SAME_BYTES.some((group) => group.includes(a) && group.includes(b));
}

/**
 * The type to send for an item declared `declared` whose bytes were recognised as
 * `recognised` (`undefined`: no known signature).
 *
 * @throws MediaError (`unsupported-type`) naming the item by `label`, never by path.
 */
export function checkDeclaredType(label: string, declared: string, recognised: string | undefined): string {
  if (recognised === undefined) {
    if (UNSIGNED.has(declared)) return declared;
    throw new MediaError(
      "unsupported-type",
      `${label} was declared as ${declared} but its bytes are not a ${declared} file (no recognised signature); send the file itself, or declare its real type.`,
    );
  }
  if (sameFormat(declared, recognised)) return declared;
  throw new MediaError(
    "unsupported-type",
    `${label} was declared as ${declared} but its bytes are ${recognised}; declare its real type (if that is accepted) or send the right file.`,
  );
}
