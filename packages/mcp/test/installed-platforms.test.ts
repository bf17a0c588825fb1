import type { AdapterDescriptor } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { findMcpAdapters, openOutboxMcp } from "../src/index.js";

const installed = await findMcpAdapters();
const byName = (name: string) =>
  installed.find((descriptor) => descriptor.name === name) as AdapterDescriptor;

/** A module specifier that no workspace package provides (built at run time so no tool resolves it early). */
const absent = ["@outbox", "adapter-that-is-not-installed"].join("/");
/** The descriptor of an installed adapter whose platform library is missing. */
const withoutLibrary = (descriptor: AdapterDescriptor): AdapterDescriptor => ({
  ...descriptor,
  createAdapter: () => import(absent),
  createEmulatedChannel: () => import(absent),
});

describe("outbox-mcp starts with what is installed and names exactly that", () => {
  it("finds every installed @outbox adapter by its descriptor", () => {
    expect(installed.map((descriptor) => descriptor.name)).toEqual([
      "discord",
      "googlechat",
      "matrix",
      "slack",
      "teams",
      "telegram",
      "whatsapp",
    ]);
  });

  it("--emulator: an adapter whose library is not installed is named with its npm command; the installed ones run", async () => {
    const outbox = await openOutboxMcp({
      emulator: true,
      descriptors: [byName("telegram"), withoutLibrary(byName("discord")), withoutLibrary(byName("slack"))],
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

  it("without --emulator: only installed platforms with their settings deliver; the rest say what to set or install", async () => {
    const outbox = await openOutboxMcp({
      env: { OUTBOX_TELEGRAM_TOKEN: "123:abc", OUTBOX_DISCORD_TOKEN: "abc.def" },
      descriptors: installed.map((descriptor) =>
        descriptor.name === "discord" ? withoutLibrary(descriptor) : descriptor,
      ),
    });
    try {
      expect(outbox.instructions.split("\n")).toEqual([
        "outbox-mcp delivers to: telegram.",
        "Not configured: googlechat (set OUTBOX_GOOGLECHAT_CREDENTIALS), matrix (set OUTBOX_MATRIX_TOKEN and OUTBOX_MATRIX_HOMESERVER), slack (set OUTBOX_SLACK_TOKEN), teams (set OUTBOX_TEAMS_CLIENT_ID and OUTBOX_TEAMS_CLIENT_SECRET and OUTBOX_TEAMS_SERVICE_URL), whatsapp (set OUTBOX_WHATSAPP_TOKEN and OUTBOX_WHATSAPP_PHONE_NUMBER_ID).",
        "Not installed: discord (npm install @outbox/discord @discordjs/rest).",
      ]);
    } finally {
      await outbox.close();
    }
  });
});
