/**
 * Validation of {@link ReplyPayloadInput} with zod: bad input is refused with every issue
 * listed, before anything else happens. zod is loaded on the first payload that is more than
 * a text: the common `{ text }` is checked without it, and loading it costs about as much as
 * the platform library's own start-up.
 */
import { createRequire } from "node:module";
import type { z } from "zod";
import { PayloadError, type PayloadIssue } from "../errors/errors.js";
import type { ReplyPayloadInput } from "../payload/types.js";
import { ownData } from "./own-data.js";

/** Most media one payload may carry (structured and found in the text together). */
export const MAX_MEDIA = 100;
/** Largest reply text, in UTF-8 bytes. */
export const MAX_TEXT_BYTES = 1024 * 1024;

const require = createRequire(import.meta.url);

/** The payload schema, built with zod (its CommonJS build, so validation stays synchronous). */
function payloadSchema() {
  const { z } = require("zod") as typeof import("zod");
  const attachment = z
    .strictObject({
      mimeType: z.string().min(1),
      filePath: z.string().min(1).optional(),
      base64: z.string().optional(),
      data: z.instanceof(Uint8Array).optional(),
      sourceUrl: z.string().optional(),
      fileName: z.string().optional(),
    })
    .refine((item) => item.filePath !== undefined || item.base64 !== undefined || item.data !== undefined, {
      message: "needs one of filePath, base64 or data",
    });

  const embed = z.strictObject({
    type: z.literal("canvas"),
    preview: z.strictObject({
      kind: z.literal("canvas"),
      surface: z.literal("assistant_message"),
      render: z.literal("url"),
      viewId: z.string().optional(),
      url: z.string().min(1),
      title: z.string().optional(),
      preferredHeight: z.number().int().min(160).max(1200).optional(),
    }),
  });

  return z
    .strictObject({
      text: z.string().refine(withinTextLimit, { message: "text is over 1 MB" }).optional(),
      mediaUrl: z.string().optional(),
      mediaUrls: z.array(z.string()).max(MAX_MEDIA).optional(),
      media: z.array(attachment).max(MAX_MEDIA).optional(),
      audioAsVoice: z.boolean().optional(),
      replyToId: z.string().min(1).nullable().optional(),
      replyToCurrent: z.boolean().optional(),
      embeds: z.array(embed).optional(),
      // A normalized payload handed back in (normalizePayload is idempotent).
      refusedMedia: z.array(z.strictObject({ reference: z.string(), reason: z.string() })).optional(),
    })
    .refine(
      (value) =>
        (value.mediaUrl ? 1 : 0) + (value.mediaUrls?.length ?? 0) + (value.media?.length ?? 0) <= MAX_MEDIA,
      {
        message: `more than ${MAX_MEDIA} media`,
      },
    );
}

let input: ReturnType<typeof payloadSchema> | undefined;

/**
 * Validate a payload; throws {@link PayloadError} listing every issue. Only own properties
 * count (see {@link ownData}); the copy that was validated is returned.
 */
export function validatePayload(raw: unknown): ReplyPayloadInput {
  const value = ownData(raw);
  if (isTextOnly(value)) return value;
  input ??= payloadSchema();
  const result = input.safeParse(value);
  if (result.success) return value as ReplyPayloadInput;
  throw new PayloadError(
    `invalid reply payload: ${result.error.issues.map((issue) => `${issue.path.join(".") || "payload"}: ${issue.message}`).join("; ")}`,
    result.error.issues.map(toPayloadIssue),
    { cause: result.error },
  );
}

/**
 * The most common payload, `{ text }` within the size limit, which the schema accepts
 * (checked without running it).
 */
function isTextOnly(value: unknown): value is ReplyPayloadInput {
  if (typeof value !== "object" || value === null) return false;
  // A copy inherits nothing (ownData): its keys are its own.
  for (const key in value) if (key !== "text") return false;
  const text = (value as { text?: unknown }).text;
  return typeof text === "string" && withinTextLimit(text);
}

/** Whether `text` is at most {@link MAX_TEXT_BYTES} in UTF-8 (a UTF-16 unit is at most 3 bytes). */
function withinTextLimit(text: string): boolean {
  return text.length <= MAX_TEXT_BYTES / 3 || Buffer.byteLength(text, "utf8") <= MAX_TEXT_BYTES;
}

function toPayloadIssue(issue: z.core.$ZodIssue): PayloadIssue {
  return {
    path: issue.path.filter((key): key is string | number => typeof key !== "symbol"),
    message: issue.message,
    code: issue.code,
  };
}
