/**
 * The suite judges what the Discord emulator decoded, not what the adapter claims: the
 * adapter rebuilt with a plain-text renderer fails the cases meant to catch it, on the
 * decoded spans, and with a renderer that loses the line structure the line-structure case
 * meant to catch it (the real adapter passes them all in conformance.test.ts).
 */
import { type ConformanceHarness, conformanceMedia, itRendererTeeth } from "@outbox/conformance";
import { createAdapter, type Renderer } from "@outbox/core";
import { describe } from "vitest";
import { discordCapabilities } from "../src/capabilities.js";
import { discordRenderer } from "../src/render/renderer.js";
import { createDiscordRest } from "../src/rest/create-rest.js";
import { DEFAULT_CHANNEL, startDiscordEmulator } from "../src/testing/index.js";
import { createDiscordTransport } from "../src/transport/transport.js";

/** Discord's parts with this renderer, still declaring Discord's capabilities. */
const brokenHarness = (renderer: Renderer): ConformanceHarness => ({
  name: "discord, broken renderer",
  async setup() {
    const emulator = await startDiscordEmulator();
    const client = createDiscordRest({ token: emulator.token, api: emulator.api });
    const adapter = createAdapter({
      name: "discord",
      capabilities: discordCapabilities,
      renderer,
      transport: createDiscordTransport(client.rest),
      media: (await conformanceMedia()).policy,
    });
    return {
      adapter,
      target: { to: DEFAULT_CHANNEL },
      observe: () => emulator.observe(DEFAULT_CHANNEL),
      inject: emulator.inject,
      rateLimitRefusals: () => emulator.rateLimitRefusals(),
      teardown: async () => {
        await client.close();
        await emulator.close();
      },
    };
  },
});

describe("the suite's teeth on Discord", () => {
  itRendererTeeth({ harnessWith: brokenHarness, renderer: discordRenderer });
});
