/**
 * The suite judges what the Telegram emulator decoded, not what the adapter claims: the
 * adapter rebuilt with one behaviour broken fails the case meant to catch it, for that
 * reason (the real adapter passes them all in conformance.test.ts).
 */
import {
  type ConformanceHarness,
  conformanceCases,
  conformanceMedia,
  harnessClock,
  itRendererTeeth,
  runCase,
} from "@outbox/conformance";
import { type Capabilities, createAdapter, type Renderer } from "@outbox/core";
import { Api } from "grammy";
import { describe, expect, it } from "vitest";
import { telegramCapabilities } from "../src/capabilities.js";
import { HARNESS_CHAT } from "../src/conformance/index.js";
import { escapeHtml } from "../src/render/escape.js";
import { telegramRenderer } from "../src/render/renderer.js";
import { startTelegramEmulator } from "../src/testing/index.js";
import { createTelegramTransport } from "../src/transport/transport.js";

/**
 * A harness whose adapter is Telegram's parts put together with these changes, still
 * declaring Telegram's capabilities (so every case applies).
 */
function brokenHarness(change: { capabilities?: Capabilities; renderer?: Renderer }): ConformanceHarness {
  return {
    name: "telegram, broken",
    virtualTime: true,
    async setup(setup) {
      const clocked = harnessClock(setup);
      const emulator = await startTelegramEmulator({ chats: [{ id: HARNESS_CHAT }], ...clocked.emulator });
      emulator.seedMessage(HARNESS_CHAT, "/start");
      const api = new Api(emulator.token, { apiRoot: emulator.apiRoot, timeoutSeconds: 10 });
      const built = createAdapter({
        name: "telegram",
        capabilities: change.capabilities ?? telegramCapabilities,
        renderer: change.renderer ?? telegramRenderer,
        transport: createTelegramTransport(api, { capabilities: telegramCapabilities, linkPreview: true }),
        media: (await conformanceMedia()).policy,
        ...clocked.adapter,
      });
      return {
        adapter: { name: built.name, capabilities: telegramCapabilities, send: built.send },
        target: { to: String(HARNESS_CHAT) },
        observe: () => emulator.observe(HARNESS_CHAT),
        inject: emulator.inject,
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        teardown: () => emulator.close(),
      };
    },
  };
}

const testCase = (id: string) => {
  const found = conformanceCases.find((c) => c.id === id);
  expect(found, id).toBeDefined();
  return found as NonNullable<typeof found>;
};

describe("the suite's teeth on Telegram", () => {
  it("an adapter that does not pace fails pacing.concurrent on the emulator's own 429 count", async () => {
    const unpaced = brokenHarness({ capabilities: { ...telegramCapabilities, rateLimits: [] } });
    await expect(runCase(testCase("pacing.concurrent"), unpaced, { strict: true })).rejects.toThrow(
      /^429s the platform answered under its own limits .*: expected [1-9]\d* to be \+0/,
    );
  }, 30_000);

  itRendererTeeth({
    harnessWith: (renderer) => brokenHarness({ renderer }),
    renderer: telegramRenderer,
    escapePlain: escapeHtml,
    plainReasons: {
      // Plain text shows the link's URL in brackets (the link is not a link), so the visible text differs.
      "text.formatting": /^visible text: expected 'bold and italic and struck and code\(\)/,
      "text.code.split": /^pre spans in chunk \d: expected 0 to be greater than 0/,
      "caption.fits": /^bold spans .*: expected \[\] to deeply equal \[ 'blue' \]/,
    },
  });
});
