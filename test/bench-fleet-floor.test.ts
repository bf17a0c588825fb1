/**
 * The fleet bench's floor by the limits an adapter declares: a burst at once, then the rate,
 * the strictest limit that applies to the chat binding.
 */
import { slackCapabilities } from "@outbox/slack";
import { telegramCapabilities } from "@outbox/telegram";
import { describe, expect, it } from "vitest";
import { declaredFloorMs } from "../bench/suites/fleet.js";

describe("the fleet bench's declared floor", () => {
  it("is Telegram's burst of 3 in a private chat, then one a second", () => {
    expect(declaredFloorMs(telegramCapabilities.rateLimits, "1", 10)).toBe(7_000);
    expect(declaredFloorMs(telegramCapabilities.rateLimits, "1", 3)).toBe(0);
  });

  it("applies the group limit only to groups", () => {
    expect(declaredFloorMs(telegramCapabilities.rateLimits, "-1001", 30)).toBe(30_000);
  });

  it("is Slack's burst of 4 in a channel, then one a second", () => {
    expect(declaredFloorMs(slackCapabilities.rateLimits, "C1", 10)).toBe(6_000);
  });
});
