/**
 * Checks the shape of media arguments before anything is decoded or written: counts,
 * strict base64, declared MIME types on the allowlist, size from the base64 length.
 * Every problem is reported at once, each naming its field.
 */
import { PayloadError, type PayloadIssue } from "@outbox/core";
import { decodedLength, isStrictBase64 } from "../content/base64.js";
import { canonicalMime, MCP_FILE_MIME_TYPES, MCP_IMAGE_MIME_TYPES } from "./allowlist.js";

/** Largest decoded item: 15 MB. */
export const MCP_MAX_INPUT_BYTES = 15 * 1024 * 1024;
/** Most images in one call. */
export const MCP_MAX_IMAGES = 10;
/** Most files in one call. */
export const MCP_MAX_FILES = 5;

/** One argument item that passed the checks. */
export interface CheckedItem {
  /** `images` or `files`. */
  field: "images" | "files";
  /** Index in its array. */
  index: number;
  /** Base64 without a `data:` prefix or whitespace. */
  base64: string;
  /** Canonical declared MIME type. */
  mimeType: string;
  /** The allowlist this item is checked against (type → default extension). */
  allowed: Readonly<Record<string, string>>;
  /** Name given by the caller, if any. */
  name?: string;
}

const DATA_PREFIX = /^data:([^;,]*)(?:;[^,]*)?;base64,/i;

/** One item checked: the item, or the first problem found in it. */
function checkItem(field: "images" | "files", index: number, item: unknown): CheckedItem | PayloadIssue {
  const at = `${field}[${index}]`;
  const issue = (key: string, code: string, message: string): PayloadIssue => ({
    path: [field, index, key],
    code,
    message: `${at}.${key}: ${message}`,
  });
  if (typeof item !== "object" || item === null) {
    return { path: [field, index], code: "invalid_type", message: `${at} must be an object.` };
  }
  const allowed = field === "images" ? MCP_IMAGE_MIME_TYPES : MCP_FILE_MIME_TYPES;
  const { data, mimeType, name } = item as Record<string, unknown>;
  if (typeof mimeType !== "string")
    return issue("mimeType", "invalid_type", "a MIME type string is required.");
  const mime = canonicalMime(mimeType);
  if (allowed[mime] === undefined) {
    const accepted = Object.keys(allowed).join(", ");
    return issue("mimeType", "invalid_value", `${mimeType} is not accepted; use one of ${accepted}.`);
  }
  if (name !== undefined && typeof name !== "string")
    return issue("name", "invalid_type", "must be a string.");
  if (typeof data !== "string") return issue("data", "invalid_type", "base64 data is required.");
  const base64 = data.replace(DATA_PREFIX, "").replace(/[\r\n]/g, "");
  if (!isStrictBase64(base64)) {
    return issue(
      "data",
      "invalid_format",
      "is not valid base64 (standard alphabet A-Z a-z 0-9 + /, padded with = to a multiple of 4, no spaces).",
    );
  }
  const size = decodedLength(base64);
  if (size > MCP_MAX_INPUT_BYTES) {
    return issue(
      "data",
      "too_big",
      `decodes to ${size} bytes; the limit is ${MCP_MAX_INPUT_BYTES} bytes (15 MB).`,
    );
  }
  return { field, index, base64, mimeType: mime, allowed, ...(name === undefined ? {} : { name }) };
}

function items(
  field: "images" | "files",
  value: unknown,
  max: number,
  issues: PayloadIssue[],
): CheckedItem[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    issues.push({ path: [field], code: "invalid_type", message: `${field} must be an array.` });
    return [];
  }
  if (value.length > max) {
    issues.push({
      path: [field],
      code: "too_big",
      message: `${field} holds ${value.length} items; at most ${max} are accepted in one call. Send the rest in another call.`,
    });
    return [];
  }
  const out: CheckedItem[] = [];
  for (const [index, item] of (value as unknown[]).entries()) {
    const checked = checkItem(field, index, item);
    if ("base64" in checked) out.push(checked);
    else issues.push(checked);
  }
  return out;
}

/**
 * Validates `message`, `images` and `files`.
 *
 * @throws PayloadError listing every problem, each with its field path.
 */
export function checkArguments(args: unknown): { message: string; items: CheckedItem[] } {
  const issues: PayloadIssue[] = [];
  const record = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  if (typeof record.message !== "string") {
    issues.push({ path: ["message"], code: "invalid_type", message: "message: a string is required." });
  }
  const checked = [
    ...items("images", record.images, MCP_MAX_IMAGES, issues),
    ...items("files", record.files, MCP_MAX_FILES, issues),
  ];
  if (issues.length > 0) {
    throw new PayloadError(`Invalid media arguments: ${issues.map((i) => i.message).join(" ")}`, issues);
  }
  return { message: record.message as string, items: checked };
}
