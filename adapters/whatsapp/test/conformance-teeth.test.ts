/**
 * The suite judges what the WhatsApp emulator decoded, not what the adapter claims: the
 * adapter rebuilt with one behaviour broken fails the case meant to catch it, for that reason
 * (the real adapter passes them all in conformance.test.ts).
 */
import {
  brokenRenderers,
  type ConformanceHarness,
  conformanceCases,
  conformanceMedia,
  harnessClock,
  runCase,
} from "@outbox/conformance";
import { type Capabilities, createAdapter, type Renderer } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { type WhatsAppLimits, whatsappCapabilitiesFor } from "../src/capabilities.js";
import { HARNESS_LIMITS, HARNESS_RECIPIENT } from "../src/conformance/harness.js";
import { whatsappRenderer } from "../src/render/renderer.js";
import { startWhatsAppEmulator } from "../src/testing/index.js";
import { createGraphClient } from "../src/transport/graph-client.js";
import { createWhatsAppTransport } from "../src/transport/transport.js";

const capabilities = whatsappCapabilitiesFor(HARNESS_LIMITS);

/** A harness whose adapter is WhatsApp's parts put together with these changes, still declaring WhatsApp's capabilities. */
function brokenHarness(change: {
  capabilities?: Capabilities;
  renderer?: Renderer;
  /** What the adapter declares, when not WhatsApp's capabilities. */
  declared?: Capabilities;
  /** The emulator's limits, when not the harness's. */
  limits?: WhatsAppLimits;
}): ConformanceHarness {
  return {
    name: "whatsapp, broken",
    formatGaps: { spoiler: "none on WhatsApp", codeLanguage: "none", linkLabel: "no link labels" },
    virtualTime: true,
    async setup(setup) {
      const clocked = harnessClock(setup);
      const emulator = await startWhatsAppEmulator({
        allowedRecipients: [HARNESS_RECIPIENT],
        limits: change.limits ?? HARNESS_LIMITS,
        ...clocked.emulator,
      });
      emulator.seedMessage(HARNESS_RECIPIENT, "Hi!");
      const client = createGraphClient({
        token: emulator.token,
        phoneNumberId: emulator.phoneNumberId,
        graphApiUrl: emulator.graphApiUrl,
      });
      const built = createAdapter({
        name: "whatsapp",
        capabilities: change.capabilities ?? capabilities,
        renderer: change.renderer ?? whatsappRenderer,
        transport: createWhatsAppTransport(client, { previewUrl: false }),
        media: (await conformanceMedia()).policy,
        ...clocked.adapter,
      });
      return {
        adapter: { name: built.name, capabilities: change.declared ?? capabilities, send: built.send },
        target: { to: HARNESS_RECIPIENT },
        observe: () => emulator.observe(HARNESS_RECIPIENT),
        inject: emulator.inject,
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        teardown: async () => {
          await client.close();
          await emulator.close();
        },
      };
    },
  };
}

const testCase = (id: string) => {
  const found = conformanceCases.find((c) => c.id === id);
  expect(found, id).toBeDefined();
  return found as NonNullable<typeof found>;
};

describe("the suite's teeth on WhatsApp", () => {
  it("an adapter that does not pace fails pacing.concurrent on the emulator's own 429 count", async () => {
    // The pair bucket refills once a second, not every 100 ms: unpaced sends on a machine slow
    // enough to spread them over the harness's refill would otherwise pass by luck.
    const limits = { ...HARNESS_LIMITS, pairIntervalMs: 1_000 };
    const declared = whatsappCapabilitiesFor(limits);
    const unpaced = brokenHarness({ capabilities: { ...declared, rateLimits: [] }, declared, limits });
    await expect(runCase(testCase("pacing.concurrent"), unpaced, { strict: true })).rejects.toThrow(
      /429s the platform answered under its own limits/,
    );
  }, 60_000);

  it.each([
    ["text.formatting", /bold spans/],
    ["text.code.split", /pre spans/],
    ["caption.fits", /bold spans/],
  ])("an adapter that sends plain text only fails %s on the decoded spans", async (id, reason) => {
    const plain = brokenHarness({
      renderer: { ...whatsappRenderer, render: (tree) => whatsappRenderer.plain(tree) },
    });
    await expect(runCase(testCase(id), plain, { strict: true })).rejects.toThrow(reason);
  });

  it("an adapter that declares no media formats fails media.animation on the platform's refusal", async () => {
    const { formats: _formats, ...media } = capabilities.media;
    const declared = { ...capabilities, media };
    const lax = brokenHarness({ capabilities: declared, declared });
    await expect(runCase(testCase("media.animation"), lax, { strict: true })).rejects.toThrow(
      /error 100.*image\/gif/,
    );
  });

  it.each(brokenRenderers.map((b) => [b.bug, b] as const))(
    "a renderer that %s fails its line-structure case",
    async (_bug, { wrap, caughtBy }) => {
      const broken = brokenHarness({ renderer: wrap(whatsappRenderer) });
      await expect(runCase(testCase(caughtBy.id), broken, { strict: true })).rejects.toThrow(caughtBy.reason);
    },
  );
});
