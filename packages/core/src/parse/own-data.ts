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
 * The prototype of every copied object: empty, frozen and prototype-free itself, so nothing is
 * inherited through it. A copy made with it keeps V8's fast properties, where one made with
 * `Object.create(null)` is a dictionary (three times the bytes, slower reads).
 */
const NOTHING_INHERITED: object = Object.freeze(Object.create(null));

/**
 * Copy objects and arrays into objects that inherit nothing and plain arrays, reading own
 * enumerable string-keyed properties only (a getter is called once, inside the guard).
 * Byte views (`Uint8Array`, …) and primitives are returned as they are, for the validator
 * to judge. Throws {@link PayloadError} naming the field when reading it throws.
 */
export function ownData(value: unknown): unknown {
  return copy(value, [], 0);
}

/** Whether a value is returned as it is: a primitive, a byte view, or deeper than copied. */
function kept(value: unknown, depth: number): boolean {
  return value === null || typeof value !== "object" || depth > MAX_DEPTH || ArrayBuffer.isView(value);
}

function copy(value: unknown, path: Path, depth: number): unknown {
  if (kept(value, depth)) return value;
  const object = value as object;
  let array: boolean;
  try {
    array = Array.isArray(object);
  } catch (error) {
    throw unreadable(path, error);
  }
  if (array) {
    const items = object as unknown[];
    let length: number;
    try {
      length = items.length;
    } catch (error) {
      throw unreadable(path, error);
    }
    const out: unknown[] = [];
    for (let i = 0; i < length; i++) {
      let item: unknown;
      try {
        item = Object.hasOwn(items, i) ? items[i] : undefined;
      } catch (error) {
        throw unreadable([...path, i], error);
      }
      out.push(kept(item, depth + 1) ? item : copy(item, [...path, i], depth + 1));
    }
    return out;
  }
  // `for…in` walks the enumerable string keys (with no list of them made, where
  // `Reflect.ownKeys` makes one); the inherited ones are skipped. A getter is called once.
  const out: Record<string, unknown> = Object.create(NOTHING_INHERITED);
  let reading: string | undefined;
  try {
    for (const key in object) {
      reading = key;
      if (Object.hasOwn(object, key)) out[key] = (object as Record<string, unknown>)[key];
      reading = undefined;
    }
  } catch (error) {
    throw unreadable(reading === undefined ? path : [...path, reading], error);
  }
  for (const key in out) {
    const field = out[key];
    if (!kept(field, depth + 1)) out[key] = copy(field, [...path, key], depth + 1);
  }
  return out;
}

/** What a read at `path` that threw becomes: a {@link PayloadError} naming the field. */
function unreadable(path: Path, error: unknown): PayloadError {
  const where = path.length === 0 ? "the payload" : path.join(".");
  const why = error instanceof Error ? error.message : String(error);
  return new PayloadError(
    `invalid reply payload: reading ${where} threw (${why}); pass plain data (no throwing getters or Proxy traps)`,
    [{ path, message: `reading it threw: ${why}`, code: "custom" }],
    { cause: error },
  );
}
