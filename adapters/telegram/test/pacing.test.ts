/**
 * `pacing.concurrent` sees refusals on Telegram: the same adapter with its pacer removed
 * (rateLimits emptied, while it still declares Telegram's) fails the case on the
 * emulator's own 429 count, and the real adapter passes it (conformance.test.ts).
 */
import { conformanceCases, conformanceMedia, runCase } from "@outbox/conformance";
import { createAdapter } from "@outbox/core";
import { Api } from "grammy";
import { describe, expect, it } from "vitest";
import { telegramCapabilities } from "../src/capabilities.js";
import { telegramRenderer } from "../src/render/renderer.js";
import { HARNESS_CHAT } from "../src/testing/harness.js";
import { startTelegramEmulator } from "../src/testing/index.js";
import { createTelegramTransport } from "../src/transport/transport.js";

const pacing = conformanceCases.find((c) => c.id === "pacing.concurrent");

describe("pacing.concurrent on Telegram", () => {
  it("fails when the adapter does not pace: the emulator counted 429s under its own limits", async () => {
    const harness = {
      name: "telegram without a pacer",
      async setup() {
        const emulator = await startTelegramEmulator({ chats: [{ id: HARNESS_CHAT }] });
        emulator.seedMessage(HARNESS_CHAT, "/start");
        const api = new Api(emulator.token, { apiRoot: emulator.apiRoot, timeoutSeconds: 10 });
        const unpaced = createAdapter({
          name: "telegram",
          capabilities: { ...telegramCapabilities, rateLimits: [] },
          renderer: telegramRenderer,
          transport: createTelegramTransport(api, { capabilities: telegramCapabilities, linkPreview: true }),
          media: (await conformanceMedia()).policy,
        });
        return {
          // Declares Telegram's limits (so the case applies) but sends through the unpaced adapter.
          adapter: { name: unpaced.name, capabilities: telegramCapabilities, send: unpaced.send },
          target: { to: String(HARNESS_CHAT) },
          observe: () => emulator.observe(HARNESS_CHAT),
          inject: emulator.inject,
          rateLimitRefusals: () => emulator.rateLimitRefusals(),
          teardown: () => emulator.close(),
        };
      },
    };
    expect(pacing).toBeDefined();
    await expect(runCase(pacing!, harness, { strict: true })).rejects.toThrow(
      /429s the platform answered under its own limits/,
    );
  }, 30_000);
});
