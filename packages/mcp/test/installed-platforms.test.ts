import { describe, expect, it } from "vitest";
import { mcpPlatforms, openOutboxMcp } from "../src/index.js";
import { type McpPlatform, present } from "../src/server/platforms.js";

const { telegram, slack, discord } = mcpPlatforms as Record<"telegram" | "slack" | "discord", McpPlatform>;
const { installed: _probe, ...slackWithoutProbe } = slack;

/** A module specifier that no workspace package provides (built at run time so no tool resolves it early). */
const absent = ["@outbox", "adapter-that-is-not-installed"].join("/");

describe("outbox-mcp starts with what is installed and names exactly that", () => {
  it("--emulator: an adapter that is not installed is named with its npm command; the installed ones run", async () => {
    const outbox = await openOutboxMcp({
      emulator: true,
      platforms: {
        telegram,
        discord: { ...discord, installed: () => present(() => import(absent)) },
        // No probe: the emulator itself failing to load is caught the same way.
        slack: { ...slackWithoutProbe, emulate: () => import(absent) },
      },
    });
    try {
      expect(outbox.instructions.split("\n")).toEqual([
        "outbox-mcp delivers to: telegram.",
        "Not installed: discord (npm install @outbox/discord @discordjs/rest), slack (npm install @outbox/slack @slack/web-api).",
        expect.stringMatching(
          /^Emulator mode: telegram delivers to an emulator on 127\.0\.0\.1; send to to="/,
        ),
      ]);
    } finally {
      await outbox.close();
    }
  });

  it("without --emulator: only installed platforms with a token deliver; the rest say what to set or install", async () => {
    const outbox = await openOutboxMcp({
      env: { OUTBOX_TELEGRAM_TOKEN: "123:abc" },
      platforms: {
        ...mcpPlatforms,
        discord: { ...discord, installed: () => present(() => import(absent)) },
      },
    });
    try {
      expect(outbox.instructions.split("\n")).toEqual([
        "outbox-mcp delivers to: telegram.",
        "Not configured: slack (set OUTBOX_SLACK_TOKEN), matrix (set OUTBOX_MATRIX_TOKEN), whatsapp (set OUTBOX_WHATSAPP_TOKEN).",
        "Not installed: discord (npm install @outbox/discord @discordjs/rest).",
      ]);
    } finally {
      await outbox.close();
    }
  });
});
