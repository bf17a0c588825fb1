/**
 * The suite judges what the Matrix emulator decoded, not what the adapter claims: the adapter
 * rebuilt with a plain-text renderer fails the cases meant to catch it, on the decoded spans,
 * and with a renderer that loses the line structure the line-structure case meant to catch it
 * (the real adapter passes them all in conformance.test.ts).
 */
import { type ConformanceHarness, conformanceMedia, itRendererTeeth } from "@outbox/conformance";
import { createAdapter, type Renderer } from "@outbox/core";
import { describe } from "vitest";
import { HARNESS_RATE_LIMIT } from "../src/conformance/index.js";
import { MatrixClient, matrixCapabilitiesFor, matrixRenderer } from "../src/index.js";
import { DEFAULT_ROOM, startMatrixEmulator } from "../src/testing/index.js";
import { createMatrixTransport } from "../src/transport/transport.js";

/** Matrix's parts with this renderer, still declaring Matrix's capabilities. */
const brokenHarness = (renderer: Renderer): ConformanceHarness => ({
  name: "matrix, broken renderer",
  async setup() {
    const emulator = await startMatrixEmulator({ rateLimit: HARNESS_RATE_LIMIT });
    const client = new MatrixClient({ homeserver: emulator.homeserver, accessToken: emulator.accessToken });
    const adapter = createAdapter({
      name: "matrix",
      capabilities: matrixCapabilitiesFor({ rateLimit: HARNESS_RATE_LIMIT }),
      renderer,
      transport: createMatrixTransport(client),
      media: (await conformanceMedia()).policy,
    });
    return {
      adapter,
      target: { to: DEFAULT_ROOM },
      observe: () => emulator.observe(DEFAULT_ROOM),
      inject: emulator.inject,
      rateLimitRefusals: () => emulator.rateLimitRefusals(),
      teardown: async () => {
        await client.close();
        await emulator.close();
      },
    };
  },
});

describe("the suite's teeth on Matrix", () => {
  itRendererTeeth({
    harnessWith: brokenHarness,
    renderer: matrixRenderer,
    // HTML-escaped, so the emulator accepts it.
    escapePlain: (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
  });
});
