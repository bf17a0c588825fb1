/**
 * One `MEDIA:` directive line: which references it carries and what text is left of it.
 */
import {
  hasExtension,
  hasScheme,
  isRootedPath,
  looksLikeLocalPath,
  referenceProblem,
  stripReference,
  toPath,
} from "./media-ref.js";

/** A reference found on the line, with the column of the left-over text it sits before. */
export interface LineReference {
  /** The cleaned reference. */
  url: string;
  /** Column in the left-over text where the reference was. */
  column: number;
}

/** A reference on a directive line that was refused, and why. */
export interface RefusedReference {
  /** The reference as written (quotes and brackets stripped). */
  reference: string;
  /** Why it cannot be media. */
  reason: string;
}

/** What becomes of a directive line. */
export interface MediaLine {
  /** Valid references, in order. */
  references: LineReference[];
  /** Path- or URL-like parts that are not valid references, in order. */
  refused: RefusedReference[];
  /** The text left on the line; `undefined` drops the line; the line itself when unchanged. */
  rest: string | undefined;
  /** Whether the line changed (something was extracted or removed). */
  changed: boolean;
}

interface Part {
  /** As written. */
  raw: string;
  /** Wrapped in matching quotes or backticks: the inside is the reference. */
  quoted: boolean;
  /** Whitespace may be part of the reference. */
  spaces: boolean;
  /** Wrapping quotes and brackets stripped, `file:` kept (for "looks like a path"). */
  stripped: string;
  /** Cleaned reference. */
  url: string;
  /** Why it is not valid under the rules of the last `validate` pass (`undefined`: valid). */
  problem: string | undefined;
}

/**
 * Column of `MEDIA:` when `text[start, end)` is a directive line (`MEDIA:` after spaces
 * and tabs), else -1.
 */
export function mediaTokenAt(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i + 6 <= end && text.startsWith("MEDIA:", i) ? i - start : -1;
}

/** Read a directive line (`token` is the offset of `MEDIA:`). */
export function readMediaLine(line: string, token: number): MediaLine {
  const payload = line
    .slice(token + "MEDIA:".length)
    .replace(/^[ \t]+/, "")
    .replace(/[ \t\r]+$/, "");
  const parts = validate(split(payload), false);
  if (!parts.some(isValid)) validate(parts, true);
  const refused = parts.flatMap((part) =>
    part.problem !== undefined &&
    !part.stripped.startsWith("MEDIA:") &&
    (looksLikeLocalPath(part.stripped) || hasScheme(part.stripped))
      ? // Trimmed as the reply's text is (Unicode spaces too), so normalizing again finds the same reference.
        [{ reference: part.stripped.trim(), reason: part.problem }]
      : [],
  );
  if (!parts.some(isValid)) {
    const leaks = parts.some((part) => looksLikeLocalPath(part.stripped));
    return leaks
      ? { references: [], refused, rest: undefined, changed: true }
      : { references: [], refused, rest: line, changed: false };
  }
  const references: LineReference[] = [];
  let rest = "";
  for (const part of parts) {
    if (isValid(part)) {
      references.push({ url: part.url, column: rest.length });
      continue;
    }
    if (
      looksLikeLocalPath(part.stripped) ||
      part.raw.startsWith("MEDIA:") ||
      part.stripped.startsWith("MEDIA:")
    )
      continue;
    rest = rest.length === 0 ? part.raw : `${rest} ${part.raw}`;
  }
  return { references, refused, rest: rest.length === 0 ? undefined : rest, changed: true };
}

/** Split a payload into candidate parts (quoted payloads and paths with spaces stay whole). */
function split(payload: string): Part[] {
  const first = payload.charAt(0);
  if (payload.length >= 2 && (first === '"' || first === "'" || first === "`") && payload.endsWith(first)) {
    return [toPart(payload, true, true)];
  }
  const words = payload.split(/[ \t]+/).filter((word) => word.length > 0);
  const head = stripReference(words[0] ?? "");
  const tail = words.length > 1 ? stripReference(words.at(-1) ?? "") : head;
  if (words.length > 1 && isRootedPath(head) && !hasExtension(head) && hasExtension(tail)) {
    return [toPart(payload, false, true)];
  }
  return words.map((raw) => toPart(raw, false, false));
}

function toPart(raw: string, quoted: boolean, spaces: boolean): Part {
  const stripped = stripReference(quoted ? raw.slice(1, -1) : raw);
  // A decoded `file:` URL may hold spaces (`%20`): it was one token as written.
  return {
    raw,
    quoted,
    spaces: spaces || /^file:/i.test(stripped),
    stripped,
    url: toPath(stripped),
    problem: "not checked",
  };
}

function validate(parts: Part[], allowBare: boolean): Part[] {
  for (const part of parts)
    part.problem = referenceProblem(part.url, { allowBare, allowSpaces: part.spaces });
  return parts;
}

function isValid(part: Part): boolean {
  return part.problem === undefined;
}
