import type { Capabilities } from "../adapter/types.js";

// Checked by hand rather than with a schema library: every adapter is created through this
// check, and loading one (zod: about 120 ms) would be most of a cold start.

/** A check of one value at `path`; it adds each problem found to `problems`. */
type Check = (value: unknown, path: string, problems: string[]) => void;

/** Records a problem at `path` (the capabilities themselves when empty). */
function fail(problems: string[], path: string, message: string): void {
  problems.push(`${path || "capabilities"}: ${message}`);
}

/** The path of `key` inside `path`. */
const child = (path: string, key: string | number): string => (path ? `${path}.${key}` : `${key}`);

/** A number (finite) meeting `test`, which `rule` describes. */
const number =
  (test: (n: number) => boolean, rule: string): Check =>
  (value, path, problems) => {
    if (typeof value !== "number" || !Number.isFinite(value)) fail(problems, path, "expected a number");
    else if (!test(value)) fail(problems, path, `must be ${rule}`);
  };
const positive = number((n) => n > 0, "positive");
const positiveInt = number((n) => n > 0 && Number.isInteger(n), "a positive integer");
const atLeast = (min: number, int: boolean): Check =>
  number((n) => n >= min && (!int || Number.isInteger(n)), `${int ? "an integer " : ""}>= ${min}`);

const oneOf =
  (...allowed: string[]): Check =>
  (value, path, problems) => {
    if (!allowed.includes(value as string)) fail(problems, path, `expected one of ${allowed.join(", ")}`);
  };
const kind = oneOf("image", "animation", "video", "audio", "document");

const typed =
  (type: "string" | "boolean"): Check =>
  (value, path, problems) => {
    if (typeof value !== type) fail(problems, path, `expected a ${type}`);
  };
const string = typed("string");
const boolean = typed("boolean");
const nonEmptyString: Check = (value, path, problems) => {
  if (typeof value !== "string" || value.length === 0) fail(problems, path, "expected a non-empty string");
};
const pattern: Check = (value, path, problems) => {
  if (typeof value !== "string") return fail(problems, path, "expected a string");
  try {
    new RegExp(value);
  } catch {
    fail(problems, path, "not a valid regular expression");
  }
};

const optional =
  (check: Check): Check =>
  (value, path, problems) =>
    value === undefined ? undefined : check(value, path, problems);
const nullable =
  (check: Check): Check =>
  (value, path, problems) =>
    value === null ? undefined : check(value, path, problems);

const arrayOf =
  (item: Check, minItems = 0): Check =>
  (value, path, problems) => {
    if (!Array.isArray(value)) return fail(problems, path, "expected an array");
    if (value.length < minItems) fail(problems, path, `needs at least ${minItems} item(s)`);
    for (const [index, element] of value.entries()) item(element, child(path, index), problems);
  };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * An object with these fields (others are ignored), then `rule` on the whole when every
 * field passed: it returns the problem, if any.
 */
const object =
  (fields: Record<string, Check>, rule?: (value: Record<string, unknown>) => string | undefined): Check =>
  (value, path, problems) => {
    if (!isRecord(value)) return fail(problems, path, "expected an object");
    const before = problems.length;
    for (const [key, check] of Object.entries(fields)) check(value[key], child(path, key), problems);
    const broken = problems.length === before ? rule?.(value) : undefined;
    if (broken !== undefined) fail(problems, path, broken);
  };

/** Like `object`, and refuses any key it does not name. */
const strictObject =
  (fields: Record<string, Check>): Check =>
  (value, path, problems) => {
    object(fields)(value, path, problems);
    if (!isRecord(value)) return;
    for (const key of Object.keys(value)) {
      if (!(key in fields)) fail(problems, path, `unrecognized key ${JSON.stringify(key)}`);
    }
  };

/** An object of `values` by key, each key passing `keys`. */
const record =
  (keys: Check, values: Check): Check =>
  (value, path, problems) => {
    if (!isRecord(value)) return fail(problems, path, "expected an object");
    for (const [key, entry] of Object.entries(value)) {
      keys(key, child(path, key), problems);
      values(entry, child(path, key), problems);
    }
  };

/** Bytes by kind: a `default` and any kind's own, each passing `bytes`. */
const bytesByKind =
  (bytes: Check): Check =>
  (value, path, problems) => {
    if (!isRecord(value)) return fail(problems, path, "expected an object");
    bytes(value.default, child(path, "default"), problems);
    for (const [key, limit] of Object.entries(value)) {
      if (key !== "default") bytes(limit, child(path, key), problems);
    }
  };

/** Limits of a way the platform has: positive. */
const byKind = bytesByKind(positive);
/** Upload limits: 0 is a kind never uploaded (Teams takes images inline, every other file by link). */
const uploadLimits = bytesByKind(atLeast(0, false));

const replies: Check = (value, path, problems) => {
  if (typeof value === "boolean") return;
  if (!isRecord(value)) return fail(problems, path, "expected a boolean or an object");
  oneOf("refused", "ignored")(value.unknownTarget, child(path, "unknownTarget"), problems);
  for (const key of Object.keys(value)) {
    if (key !== "unknownTarget") fail(problems, path, `unrecognized key ${JSON.stringify(key)}`);
  }
};

const capabilitiesCheck = object({
  text: object({ maxLength: positiveInt, chunkLength: optional(positiveInt), format: string }, (text) =>
    ((text.chunkLength as number | undefined) ?? (text.maxLength as number)) <= (text.maxLength as number)
      ? undefined
      : "chunkLength is above maxLength",
  ),
  caption: nullable(object({ maxLength: positiveInt, kinds: optional(arrayOf(kind)) })),
  media: object({
    kinds: arrayOf(kind),
    formats: optional(record(kind, arrayOf(nonEmptyString))),
    maxBytes: uploadLimits,
    uploads: optional(boolean),
    byUrl: optional(byKind),
    hostedLinks: optional(byKind),
    image: optional(object({ maxDimensionSum: optional(positive), maxAspectRatio: optional(positive) })),
  }),
  album: nullable(
    object(
      { minItems: atLeast(1, true), maxItems: atLeast(2, true), groups: arrayOf(arrayOf(kind, 1), 1) },
      (album) =>
        (album.minItems as number) <= (album.maxItems as number)
          ? undefined
          : "album.minItems is above maxItems",
    ),
  ),
  voice: object({ mode: oneOf("native", "as-audio"), formats: arrayOf(string), caption: optional(boolean) }),
  replies,
  threads: boolean,
  replyThreads: optional(boolean),
  markdownImages: boolean,
  rateLimits: arrayOf(
    object({
      scope: oneOf("target", "global"),
      limit: positive,
      intervalMs: positive,
      burst: optional(atLeast(1, false)),
      match: optional(pattern),
      requests: optional(
        strictObject({ text: optional(positive), media: optional(positive), album: optional(positive) }),
      ),
    }),
  ),
  edits: optional(nullable(object({ minIntervalMs: atLeast(0, false), maxLength: optional(positiveInt) }))),
});

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Check an adapter's capabilities and return a deeply frozen copy. Throws a `TypeError`
 * listing every problem (a programming error in the adapter, not a delivery failure).
 */
export function validateCapabilities(capabilities: Capabilities): Capabilities {
  const problems: string[] = [];
  capabilitiesCheck(capabilities, "", problems);
  if (problems.length > 0) {
    throw new TypeError(`Invalid adapter capabilities: ${problems.join("; ")}`);
  }
  return deepFreeze(structuredClone(capabilities));
}
