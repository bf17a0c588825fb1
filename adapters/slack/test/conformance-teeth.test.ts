/**
 * The suite judges what the Slack emulator decoded, not what the adapter claims: the adapter
 * rebuilt with one behaviour broken fails the case meant to catch it, for that reason (the
 * real adapter passes them all in conformance.test.ts).
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
import { describe, expect, it } from "vitest";
import { slackCapabilities } from "../src/capabilities.js";
import { HARNESS_CHANNEL } from "../src/conformance/harness.js";
import { slackRenderer } from "../src/render/renderer.js";
import { startSlackEmulator } from "../src/testing/index.js";
import { createSlackClient } from "../src/transport/client.js";
import { createSlackTransport } from "../src/transport/transport.js";

/** A harness whose adapter is Slack's parts put together with these changes, still declaring Slack's capabilities. */
function brokenHarness(change: { capabilities?: Capabilities; renderer?: Renderer }): ConformanceHarness {
  return {
    name: "slack, broken",
    formatGaps: { spoiler: "none on Slack", codeLanguage: "none in mrkdwn" },
    virtualTime: true,
    async setup(setup) {
      const clocked = harnessClock(setup);
      const emulator = await startSlackEmulator({ channels: [{ id: HARNESS_CHANNEL }], ...clocked.emulator });
      const client = createSlackClient({ token: emulator.token, slackApiUrl: emulator.slackApiUrl });
      const built = createAdapter({
        name: "slack",
        capabilities: change.capabilities ?? slackCapabilities,
        renderer: change.renderer ?? slackRenderer,
        transport: createSlackTransport(client, { unfurl: false }),
        media: (await conformanceMedia()).policy,
        ...clocked.adapter,
      });
      return {
        adapter: { name: built.name, capabilities: slackCapabilities, send: built.send },
        target: { to: HARNESS_CHANNEL },
        observe: () => emulator.observe(HARNESS_CHANNEL),
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

describe("the suite's teeth on Slack", () => {
  it("an adapter that does not pace fails pacing.concurrent on the emulator's own 429 count", async () => {
    const unpaced = brokenHarness({ capabilities: { ...slackCapabilities, rateLimits: [] } });
    await expect(runCase(testCase("pacing.concurrent"), unpaced, { strict: true })).rejects.toThrow(
      /429s the platform answered under its own limits/,
    );
  }, 30_000);

  itRendererTeeth({
    harnessWith: (renderer) => brokenHarness({ renderer }),
    renderer: slackRenderer,
    plainReasons: {
      "text.formatting": /^visible text: expected .bold and italic/,
      "text.code.split": /pre spans/,
      "caption.fits": /bold spans/,
    },
  });
});
