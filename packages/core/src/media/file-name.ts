/**
 * The one rule every media file name goes through, whatever its source (a payload's
 * `fileName`, a local path's last segment, a URL, a `content-disposition` header, inline
 * data): a name a platform shows or a receiver saves must not carry a path, must look like
 * what it is, and must not break the multipart header it travels in.
 */

/** Longest name in UTF-8 bytes (the usual file-system limit); the extension is kept. */
export const MAX_FILE_NAME_BYTES = 255;

/**
 * A last segment longer than these two parts together is cut to its start and its end (where
 * the extension is) before it is cleaned: the result is at most 255 bytes anyway, and the
 * cleaning then costs the same for a 1 MB name as for a short one.
 */
const RAW_HEAD = 2_048;
const RAW_TAIL = 64;

/** Extensions longer than this are not treated as extensions when a name is shortened. */
const MAX_EXTENSION_LENGTH = 16;

/**
 * Characters that change how a name reads without being seen: Unicode format characters
 * (bidi embeddings, overrides and isolates, the LRM/RLM/ALM marks, zero-width space and
 * joiners, word joiner, BOM, soft hyphen, tag characters), lone surrogates, the combining
 * grapheme joiner and the Hangul fillers, which render as blanks.
 */
const INVISIBLE = /[\p{Cf}\p{Cs}\u115F\u1160\u3164\uFFA0]|\u034F/gu;

/** Control characters (C0, DEL, C1) and any other white space: shown as one space. */
const SPACING = /[\p{Cc}\p{Zl}\p{Zp}\s]+/gu;

/**
 * `"` ends a quoted `filename` parameter; `;` starts a new parameter in parsers that split
 * the header without honouring quotes (Telegram's): either would let a name add a part
 * parameter such as `name=chat_id`.
 */
const HEADER_BREAKING = /[";]/g;

/** `text` without leading and trailing dots and spaces (a loop: a regex would backtrack on long runs). */
function trimDots(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === "." || text[start] === " ")) start += 1;
  while (end > start && (text[end - 1] === "." || text[end - 1] === " ")) end -= 1;
  return text.slice(start, end);
}

/** The extension to keep when shortening, with its dot, or "" (too long or none). */
function keptExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return "";
  const extension = name.slice(dot);
  return extension.length - 1 <= MAX_EXTENSION_LENGTH ? extension : "";
}

/** `name` cut to {@link MAX_FILE_NAME_BYTES} UTF-8 bytes on a code point boundary, extension kept. */
function bounded(name: string): string {
  if (Buffer.byteLength(name) <= MAX_FILE_NAME_BYTES) return name;
  const extension = keptExtension(name);
  let budget = MAX_FILE_NAME_BYTES - Buffer.byteLength(extension);
  let stem = "";
  for (const codePoint of name.slice(0, name.length - extension.length)) {
    budget -= Buffer.byteLength(codePoint);
    if (budget < 0) break;
    stem += codePoint;
  }
  return `${trimDots(stem)}${extension}`;
}

/**
 * A file name made safe to present and to send, or `""` when nothing of it is left (the
 * caller then names the item after its kind):
 * - only the last segment after `/` or `\` is kept, so a name never carries a path
 *   (`../../etc/passwd` is `passwd`; `..` alone is nothing); a segment over 2 112
 *   characters keeps its first 2 048 and last 64;
 * - invisible and direction-changing characters are removed (`invoice\u202Egnp.exe` is
 *   `invoicegnp.exe`: what it is, not `invoiceexe.png`);
 * - control characters and line breaks become spaces, runs of spaces one;
 * - `"` and `;` become `_`, so no multipart parser reads a parameter out of a name;
 * - leading and trailing dots and spaces go (a trailing dot hides the real extension on
 *   Windows; a leading one hides the file);
 * - the result is at most {@link MAX_FILE_NAME_BYTES} UTF-8 bytes, its extension kept.
 *
 * The rule is idempotent: a clean name comes back unchanged.
 */
export function cleanFileName(raw: string): string {
  const last = raw.slice(Math.max(raw.lastIndexOf("/"), raw.lastIndexOf("\\")) + 1);
  const window =
    last.length > RAW_HEAD + RAW_TAIL ? `${last.slice(0, RAW_HEAD)}${last.slice(-RAW_TAIL)}` : last;
  const visible = window.normalize("NFC").replace(INVISIBLE, "").replace(SPACING, " ");
  return bounded(trimDots(visible.replace(HEADER_BREAKING, "_")));
}

/**
 * The value of a multipart part's `filename` parameter (RFC 7578 §4.2), quotes included:
 * the name cleaned by {@link cleanFileName} (a no-op for loaded media; a name built by hand
 * gets the same rule), so it holds no `"`, `;`, `\`, line break or control character that
 * could end the value or add a parameter, whichever parser reads it. UTF-8 stays as is, as
 * browsers send it. A name with nothing left is `file`.
 */
export function multipartFileName(fileName: string): string {
  return `"${cleanFileName(fileName) || "file"}"`;
}
