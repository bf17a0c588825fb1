/**
 * An unreachable platform costs one retry cycle per delivery (docs/delivery.md, "an
 * unreachable platform fails fast"), a captioned image included: on every platform's
 * emulator, through the real client library and on an injected clock, every connection is
 * refused; the image is tried once and retried three times (0.5 + 1 + 2 s), and its caption
 * is not tried again as text on a cycle of its own.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixturePath } from "@outbox/conformance";
import { createManualClock } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { platforms } from "./platforms.js";

const workspace = mkdtempSync(join(tmpdir(), "outbox-unreachable-"));
copyFileSync(fixturePath("png"), join(workspace, "chart.png"));

describe("a captioned image on an unreachable platform", () => {
  it.each(platforms.map((platform) => [platform.name, platform] as const))(
    "%s: one retry cycle, the caption not retried as text",
    async (_name, platform) => {
      const clock = createManualClock();
      const rig = await platform.start({
        clock,
        media: { localRoots: [workspace], workspaceDir: workspace },
        timeoutMs: 60_000,
      });
      try {
        // More refusals than a delivery could ever use: the platform stays down.
        rig.inject({ kind: "reset-before-write", times: 100 });
        const receipt = await clock.run(
          rig.adapter.send({ text: "The chart.\nMEDIA:./chart.png" }, { to: rig.to }),
        );
        expect(rig.refused()).toBe(4);
        expect(clock.now()).toBe(3_500);
        expect(receipt.messages).toEqual([]);
        expect(receipt.degraded).toEqual([]);
        // A platform without captions (Teams, Google Chat) sends the text and the image as two parts, both reported.
        const parts = rig.adapter.capabilities.caption === null ? [0, 1] : [0];
        expect(receipt.failures.map((f) => [f.part, f.ambiguous, f.retryable])).toEqual(
          parts.map((part) => [part, false, true]),
        );
        expect(rig.observe()).toEqual([]);
      } finally {
        await rig.close();
      }
    },
  );
});
