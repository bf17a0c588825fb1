import {
  AgentRunError,
  AuthError,
  MediaError,
  type OutboxError,
  PayloadError,
  PlatformError,
  RateLimitedError,
  StoreError,
  TargetNotFoundError,
  TransportError,
  UnsupportedFeatureError,
} from "@outbox/core";
import { describe, expect, it } from "vitest";
import { toolAction } from "../src/server/tool-actions.js";
import { TOOL_ARGUMENTS } from "./support/tool-arguments.js";

/** One error of every class and kind a receipt can carry. */
const errors: OutboxError[] = [
  new RateLimitedError("slow", 90_000),
  new StoreError("journal"),
  new TransportError("refused", { ambiguous: false }),
  new TransportError("reset", { ambiguous: true }),
  new AuthError("bad token"),
  ...(["chat", "thread", "reply", "message"] as const).map(
    (missing) => new TargetNotFoundError("gone", missing),
  ),
  ...(["blocked", "too-large", "not-found", "fetch-failed", "unsupported-type"] as const).map(
    (reason) => new MediaError(reason, "media"),
  ),
  ...(["threads", "encryption", "media", "voice", "album"] as const).map(
    (feature) => new UnsupportedFeatureError(feature, `refused: ${feature}`),
  ),
  new PayloadError("bad"),
  new PlatformError("no", { method: "x", status: 400, description: "no" }),
  new PlatformError("down", { method: "x", status: 502, description: "down" }),
  new AgentRunError("aborted", "stop", { text: "", mediaUrls: [], media: 0 }),
];

describe("send_message's failure actions", () => {
  it.each([true, false])("advise only what the tool can do (call with a key: %s)", (keyed) => {
    for (const error of errors) {
      const ambiguous =
        error instanceof TransportError
          ? error.ambiguous
          : error instanceof PlatformError && error.status >= 500;
      const action = toolAction({ part: 0, error, ambiguous }, keyed);
      // Integrator settings and fields of core's API are out of an agent's reach.
      expect(action, error.name).not.toMatch(/retry\.|media\.|target\.|replyToId|error\.|localRoots|payload/);
      for (const [, name] of action.matchAll(/`([^`]+)`/g)) expect(TOOL_ARGUMENTS, action).toContain(name);
      // Without a key, a whole repeat would resend what went: never advised.
      if (!keyed) expect(action, error.name).not.toMatch(/same (arguments and )?idempotencyKey/);
    }
  });

  it.each(["encryption", "media", "voice", "album"])(
    "%s: a refusal that is not the platform lacking a feature never says it lacks one",
    (feature) => {
      const action = toolAction({ part: 0, error: new UnsupportedFeatureError(feature, "refused") }, true);
      expect(action).not.toMatch(/has no/);
    },
  );
});
