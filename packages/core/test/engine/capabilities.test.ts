import { describe, expect, it } from "vitest";
import type { Capabilities } from "../../src/adapter/types.js";
import { validateCapabilities } from "../../src/engine/capabilities.js";
import { testCapabilities } from "./support/recording-transport.js";

const base = testCapabilities();

describe("validateCapabilities", () => {
  it("lists every problem with its path in one TypeError", () => {
    const bad = {
      ...base,
      media: { ...base.media, formats: { picture: ["x"] }, maxBytes: { default: -1, image: "x" } },
      rateLimits: [{ scope: "x", limit: 1, intervalMs: 1, match: "(" }],
      replies: { unknownTarget: "refused", extra: 1 },
      album: { minItems: 3, maxItems: 2, groups: [["image"]] },
    } as unknown as Capabilities;
    expect(() => validateCapabilities(bad)).toThrow(
      new TypeError(
        "Invalid adapter capabilities: media.formats.picture: expected one of image, animation, video, audio, document; " +
          "media.maxBytes.default: must be >= 0; media.maxBytes.image: expected a number; " +
          "album: album.minItems is above maxItems; " +
          'replies: unrecognized key "extra"; rateLimits.0.scope: expected one of target, global; ' +
          "rateLimits.0.match: not a valid regular expression",
      ),
    );
  });

  it.each([
    ["a missing section", { ...base, voice: undefined }, "voice: expected an object"],
    ["a fractional length", { ...base, text: { maxLength: 1.5, format: "html" } }, "text.maxLength: must be"],
    [
      "an empty album group",
      { ...base, album: { minItems: 2, maxItems: 10, groups: [[]] } },
      "album.groups.0: needs",
    ],
    [
      "a non-finite limit",
      { ...base, caption: { maxLength: Number.POSITIVE_INFINITY } },
      "caption.maxLength: expected",
    ],
    ["a negative edit interval", { ...base, edits: { minIntervalMs: -1 } }, "edits.minIntervalMs: must be"],
    [
      "a request count of an unknown kind",
      { ...base, rateLimits: [{ scope: "global", limit: 1, intervalMs: 1, requests: { upload: 2 } }] },
      'rateLimits.0.requests: unrecognized key "upload"',
    ],
    [
      "a request count that is not positive",
      { ...base, rateLimits: [{ scope: "global", limit: 1, intervalMs: 1, requests: { media: 0 } }] },
      "rateLimits.0.requests.media: must be positive",
    ],
  ])("refuses %s", (_name, capabilities, message) => {
    expect(() => validateCapabilities(capabilities as unknown as Capabilities)).toThrow(message);
  });

  it("accepts nulls and optional fields left out, and returns a frozen copy", () => {
    const valid = validateCapabilities({ ...base, caption: null, album: null, edits: null });
    expect(valid).not.toBe(base);
    expect(Object.isFrozen(valid.media)).toBe(true);
  });
});
