/**
 * The suite against a reference platform that declares little: no captions, albums,
 * voice notes, replies, threads, animations, videos or Markdown images, no rate limits, no
 * edits.
 * The negative branches run here: every undeclared feature must degrade as stated or be
 * refused before any platform call.
 */
import type { Capabilities } from "@outbox/core";
import { describeConformance } from "../src/describe-conformance.js";
import { referenceCapabilities } from "../src/reference/capabilities.js";
import { createReferenceHarness } from "../src/reference/harness.js";

const minimal: Capabilities = {
  ...referenceCapabilities,
  caption: null,
  media: { kinds: ["image", "audio", "document"], maxBytes: { default: 5_000_000 } },
  album: null,
  voice: { mode: "as-audio", formats: [] },
  replies: false,
  threads: false,
  markdownImages: false,
  rateLimits: [],
  edits: null,
};

describeConformance(
  createReferenceHarness({ name: "reference, minimal capabilities", capabilities: minimal }),
  {
    strict: true,
  },
);
