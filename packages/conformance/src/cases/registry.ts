import type { Capabilities } from "@outbox/core";
import { expect } from "vitest";
import type { CaseDefinition, ConformanceCase } from "../types.js";
import { albumCases } from "./album.js";
import { caseAssumptions } from "./assumptions.js";
import { editCases } from "./edits.js";
import { faultCases } from "./fault.js";
import { lineCases } from "./lines.js";
import { mediaCases } from "./media.js";
import { mediaTravelCases } from "./media-travel.js";
import { policyCases } from "./policy.js";
import { receiptCases } from "./receipt.js";
import { replyCases } from "./reply.js";
import { textCases } from "./text.js";
import { untrustedSizeCases } from "./untrusted-size.js";
import { untrustedTextCases } from "./untrusted-text.js";
import { voiceCases } from "./voice.js";

/**
 * Every case id, in run order. Ids are stable: a published id never changes meaning
 * (see docs/conformance.md, "Versioning").
 */
export const CONFORMANCE_CASE_IDS = [
  "text.plain",
  "text.formatting",
  "text.spoiler",
  "text.quote",
  "text.special-chars",
  "text.long.split",
  "text.code.split",
  "text.lines",
  "text.lists",
  "text.blocks",
  "text.nested-fence",
  "text.markdown-image",
  "untrusted.mentions",
  "untrusted.lying-links",
  "untrusted.bidi",
  "untrusted.schemes",
  "media.image.url",
  "media.image.file",
  "media.image.base64",
  "media.image.media-line",
  "media.image.jpeg",
  "media.animation",
  "media.video",
  "media.audio",
  "media.document",
  "caption.fits",
  "caption.too-long",
  "media.pass-through",
  "media.pass-through.opt-in",
  "media.pass-through.blocked",
  "media.hosted",
  "media.hosted.none",
  "album.images",
  "album.split",
  "album.groups",
  "album.caption",
  "album.none",
  "voice.ogg",
  "voice.tag",
  "voice.incompatible",
  "reply.text",
  "reply.media",
  "reply.album",
  "reply.voice",
  "thread.text",
  "thread.media",
  "thread.album",
  "thread.voice",
  "reply.split.first",
  "reply.mode.all",
  "reply.mode.off",
  "reply.missing",
  "thread.split",
  "undeclared.replies",
  "undeclared.threads",
  "policy.blocked-url",
  "policy.blocked-path",
  "policy.media-line-path",
  "policy.media-line-url",
  "fault.rate-limit",
  "fault.rate-limit.exhausted",
  "fault.server-error",
  "fault.reset",
  "fault.reject",
  "fault.partial.load",
  "fault.partial.platform",
  "idempotency.repeat",
  "idempotency.resume",
  "receipt.order",
  "receipt.ids",
  "pacing.concurrent",
  "pacing.media",
  "capabilities.shape",
  "edits.progressive",
  "edits.not-modified",
  "edits.reply",
  "edits.split",
  "edits.media",
  "edits.at-limit",
  "untrusted.size.markers",
  "untrusted.size.alternating",
  "untrusted.size.quoted-lines",
  "untrusted.nesting",
  "capabilities.covered",
] as const;

/** A conformance case id. */
export type ConformanceCaseId = (typeof CONFORMANCE_CASE_IDS)[number];

/**
 * The capability features an adapter declares, as the `exercises` tags of the cases name
 * them: `text`, `caption`, `media.kinds.<kind>`, `media.byUrl`, `album`, `voice`, `replies`, `threads`,
 * `markdownImages`, `rateLimits`, `edits`.
 */
export function declaredFeatures(capabilities: Capabilities): string[] {
  return [
    "text",
    ...(capabilities.caption ? ["caption"] : []),
    ...capabilities.media.kinds.map((kind) => `media.kinds.${kind}`),
    ...(capabilities.media.byUrl ? ["media.byUrl"] : []),
    ...(capabilities.album ? ["album"] : []),
    ...(capabilities.voice.mode === "native" ? ["voice"] : []),
    ...(capabilities.replies ? ["replies"] : []),
    ...(capabilities.threads ? ["threads"] : []),
    ...(capabilities.markdownImages ? ["markdownImages"] : []),
    ...(capabilities.rateLimits.length > 0 ? ["rateLimits"] : []),
    ...(capabilities.edits != null ? ["edits"] : []),
  ];
}

const coveredCase: CaseDefinition = {
  id: "capabilities.covered",
  checks:
    "Every declared capability is exercised by at least one case that applies and is not skipped by the harness.",
  gate: "always",
  applies: () => true,
  exercises: [],
  async run(ctx) {
    const unexercised = declaredFeatures(ctx.capabilities).filter(
      (feature) =>
        !conformanceCases.some(
          (c) =>
            c.exercises.includes(feature) &&
            c.applies(ctx.capabilities) === true &&
            !(c.id in ctx.harnessSkips),
        ),
    );
    expect(unexercised, "declared capabilities no running case exercises").toEqual([]);
  },
};

/** A case with what it assumes ({@link caseAssumptions}); a case without an entry is a bug of the suite. */
function withAssumptions(definition: CaseDefinition): ConformanceCase {
  const assumptions = caseAssumptions[definition.id];
  if (assumptions === undefined)
    throw new Error(`conformance case ${definition.id} says nothing of what it sends`);
  return { ...definition, ...assumptions };
}

/** Every case, as data, in the order of {@link CONFORMANCE_CASE_IDS}; `describeConformance` wraps each in `it`. */
export const conformanceCases: readonly ConformanceCase[] = [
  ...textCases.slice(0, -1),
  ...lineCases,
  ...textCases.slice(-1),
  ...untrustedTextCases,
  ...mediaCases,
  ...mediaTravelCases,
  ...albumCases,
  ...voiceCases,
  ...replyCases,
  ...policyCases,
  ...faultCases,
  ...receiptCases,
  ...editCases,
  ...untrustedSizeCases,
  coveredCase,
].map(withAssumptions);
