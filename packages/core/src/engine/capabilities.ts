import { z } from "zod";
import type { Capabilities } from "../adapter/types.js";

const kind = z.enum(["image", "animation", "video", "audio", "document"]);
const positive = z.number().positive();
const byKind = z.object({ default: positive }).catchall(positive);
const pattern = z.string().refine((source) => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}, "not a valid regular expression");

const schema = z.object({
  text: z
    .object({
      maxLength: z.number().int().positive(),
      chunkLength: z.number().int().positive().optional(),
      format: z.string(),
    })
    .refine(
      (text) => (text.chunkLength ?? text.maxLength) <= text.maxLength,
      "chunkLength is above maxLength",
    ),
  caption: z.object({ maxLength: z.number().int().positive(), kinds: z.array(kind).optional() }).nullable(),
  media: z.object({
    kinds: z.array(kind),
    formats: z.partialRecord(kind, z.array(z.string().min(1))).optional(),
    maxBytes: byKind,
    byUrl: byKind.optional(),
    image: z.object({ maxDimensionSum: positive.optional(), maxAspectRatio: positive.optional() }).optional(),
  }),
  album: z
    .object({
      minItems: z.number().int().min(1),
      maxItems: z.number().int().min(2),
      groups: z.array(z.array(kind).min(1)).min(1),
    })
    .refine((album) => album.minItems <= album.maxItems, "album.minItems is above maxItems")
    .nullable(),
  voice: z.object({
    mode: z.enum(["native", "as-audio"]),
    formats: z.array(z.string()),
    caption: z.boolean().optional(),
  }),
  replies: z.union([z.boolean(), z.object({ unknownTarget: z.enum(["refused", "ignored"]) }).strict()]),
  threads: z.boolean(),
  replyThreads: z.boolean().optional(),
  markdownImages: z.boolean(),
  rateLimits: z.array(
    z.object({
      scope: z.enum(["target", "global"]),
      limit: positive,
      intervalMs: positive,
      burst: z.number().min(1).optional(),
      match: pattern.optional(),
      requests: z
        .object({ text: positive.optional(), media: positive.optional(), album: positive.optional() })
        .strict()
        .optional(),
    }),
  ),
  edits: z
    .object({ minIntervalMs: z.number().min(0), maxLength: z.number().int().positive().optional() })
    .nullable()
    .optional(),
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
  const result = schema.safeParse(capabilities);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join(".") || "capabilities"}: ${issue.message}`,
    );
    throw new TypeError(`Invalid adapter capabilities: ${problems.join("; ")}`);
  }
  return deepFreeze(structuredClone(capabilities));
}
