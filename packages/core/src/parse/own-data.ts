/**
 * A payload as plain data: own properties only, read once. Anything inherited (a polluted
 * `Object.prototype.mediaUrls`) is invisible, and a throwing getter or Proxy trap becomes
 * a {@link PayloadError} naming the field instead of escaping raw.
 */
import { PayloadError } from "../errors/errors.js";

/** Deepest nesting copied (a payload is at most payload → media[] → attachment → field). */
const MAX_DEPTH = 6;

type Path = Array<string | number>;

/**
 * Copy objects and arrays into prototype-free objects and plain arrays, reading own
 * enumerable string-keyed properties only (a getter is called once, inside the guard).
 * Byte views (`Uint8Array`, …) and primitives are returned as they are, for the validator
 * to judge. Throws {@link PayloadError} naming the field when reading it throws.
 */
export function ownData(value: unknown): unknown {
  return copy(value, [], 0);
}

function copy(value: unknown, path: Path, depth: number): unknown {
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH || ArrayBuffer.isView(value))
    return value;
  const keys = guard(path, () => (Array.isArray(value) ? undefined : Reflect.ownKeys(value)));
  if (keys === undefined) {
    const array = value as unknown[];
    const length = guard(path, () => array.length);
    const out: unknown[] = [];
    for (let i = 0; i < length; i++) {
      const item = guard([...path, i], () => (Object.hasOwn(array, i) ? array[i] : undefined));
      out.push(copy(item, [...path, i], depth + 1));
    }
    return out;
  }
  const out: Record<string, unknown> = Object.create(null);
  for (const key of keys) {
    if (typeof key !== "string") continue;
    const field = guard([...path, key], () => {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor === undefined || descriptor.enumerable !== true) return { skip: true as const };
      return { value: "value" in descriptor ? descriptor.value : descriptor.get?.call(value) };
    });
    if ("skip" in field) continue;
    out[key] = copy(field.value, [...path, key], depth + 1);
  }
  return out;
}

/** Runs a read; anything it throws becomes a {@link PayloadError} at `path`. */
function guard<T>(path: Path, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const where = path.length === 0 ? "the payload" : path.join(".");
    const why = error instanceof Error ? error.message : String(error);
    throw new PayloadError(
      `invalid reply payload: reading ${where} threw (${why}); pass plain data (no throwing getters or Proxy traps)`,
      [{ path, message: `reading it threw: ${why}`, code: "custom" }],
      { cause: error },
    );
  }
}
