import type { PlannedDelivery, PlannedInput, PlannedMedia, PlannedPart } from "../adapter/types.js";
import type { OutboxError } from "../errors/errors.js";
import { redactError, redactSecrets } from "../errors/redact.js";
import type { LoadedMedia } from "../media/types.js";
import type { Degradation, DeliveryPlan, PartDegradation, PlanPart } from "../plan/types.js";

/** What a planned delivery says beyond the plan's parts. */
export interface PlanContext {
  /** The message the first operation replies to, when the platform can reply. */
  replyTo: string | undefined;
  /** Why a reply the payload asks for is not made, if so. */
  replyDropped: Degradation | undefined;
  /** The items described without their bytes (size unknown). */
  unloaded: WeakSet<LoadedMedia>;
  /** The adapter's secrets, removed from errors and reasons. */
  secrets: readonly string[];
  /** The adapter's name. */
  platform: string;
  /** The send planned. */
  input: PlannedInput;
}

/**
 * The public description of a plan: plain data, no trees or byte streams. A reply the
 * platform cannot make is noted on the first part that is not failed, where `send` notes it.
 */
export function describePlan(plan: DeliveryPlan, context: PlanContext): PlannedDelivery {
  const { secrets } = context;
  const media = (item: LoadedMedia): PlannedMedia => ({
    kind: item.kind,
    mimeType: item.mimeType,
    fileName: item.fileName,
    source:
      item.source.type === "url"
        ? item.source.url
        : item.source.type === "file"
          ? item.source.path
          : "inline",
    size: context.unloaded.has(item) ? undefined : item.size,
  });
  const parts = plan.parts.map((part): PlannedPart => describePart(part, media, secrets));
  const degraded: PartDegradation[] = plan.degraded.map((entry) => ({
    ...entry,
    reason: redactSecrets(entry.reason, secrets),
  }));
  const first = parts.findIndex((part) => part.type !== "failed");
  if (context.replyDropped !== undefined && first >= 0) {
    const at = degraded.findIndex((entry) => entry.part >= first);
    degraded.splice(at < 0 ? degraded.length : at, 0, { part: first, ...context.replyDropped });
  }
  return {
    parts,
    degraded,
    calls: parts.filter((part) => part.type !== "failed").length,
    replyTo: context.replyTo,
    platform: context.platform,
    input: context.input,
  };
}

function describePart(
  part: PlanPart,
  media: (item: LoadedMedia) => PlannedMedia,
  secrets: readonly string[],
): PlannedPart {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "media":
      return {
        type: "media",
        kind: part.kind,
        media: media(part.media),
        ...(part.caption === undefined ? {} : { caption: part.caption }),
      };
    case "album":
      return {
        type: "album",
        items: part.items.map((item) => ({ kind: item.kind, media: media(item.media) })),
        ...(part.caption === undefined ? {} : { caption: part.caption }),
      };
    case "failed":
      return { type: "failed", error: redactError(part.error as OutboxError, secrets) };
  }
}
