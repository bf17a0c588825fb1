/**
 * The resend an agent is advised to make, on the platforms' own emulators through their real
 * client libraries: a reply of text and an image whose image cannot be delivered, then the
 * same call again with the same `idempotencyKey`, as the tool result says. The platform ends
 * up holding the text once and the image once.
 */
import { fixtureBytes, fixtureSha256 } from "@outbox/conformance";
import type { Fault } from "@outbox/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findMcpAdapters } from "../src/index.js";
import { type ConnectedMcp, connectMcp } from "./support/connect.js";

const png = {
  data: Buffer.from(fixtureBytes("png")).toString("base64"),
  mimeType: "image/png",
  name: "chart.png",
};
// Longer than a caption on both platforms: the text goes as its own message, then the image.
const message = `Quarterly report. ${"The figures are in the chart below. ".repeat(40)}`;

/**
 * Each platform, and the fault that keeps its image from being posted: every connection
 * after the request before the image's post is reset before it is written (the first try
 * and core's three retries), so the image certainly did not go.
 */
const platforms: Array<[string, Fault]> = [
  ["whatsapp", { kind: "reset-before-write", method: "media", times: 4 }],
  ["telegram", { kind: "reset-before-write", method: "sendMessage", times: 4 }],
];

let mcp: ConnectedMcp;

beforeAll(async () => {
  mcp = await connectMcp({ emulator: true, descriptors: await findMcpAdapters() });
});
afterAll(() => mcp.close());

describe("an agent resends as advised, with the same idempotencyKey", () => {
  it.each(platforms)(
    "%s: the text and the image arrive once each",
    { timeout: 30_000 },
    async (name, fault) => {
      const channel = mcp.outbox.pool.emulated.get(name);
      if (channel?.inject === undefined) throw new Error(`${name}: no emulated channel with faults`);
      const args = {
        platform: name,
        to: channel.target.to,
        message,
        images: [png],
        idempotencyKey: "turn-3",
      };
      const before = channel.observe().length;

      channel.inject(fault);
      const first = await mcp.send(args);
      expect(first.isError).toBe(true);
      const [failure] = (first.structuredContent as { failures: Array<Record<string, unknown>> }).failures;
      expect(failure).toMatchObject({ part: 1, retryable: true, ambiguous: false });
      expect(failure?.action).toMatch(/call send_message again with the same arguments and idempotencyKey/);
      expect(
        channel
          .observe()
          .slice(before)
          .map((m) => m.kind),
      ).toEqual(["text"]);

      const second = await mcp.send(args);
      expect(second.isError, JSON.stringify(second.content)).toBeFalsy();
      expect(second.structuredContent).toMatchObject({ ok: true, failures: [] });
      const held = channel.observe().slice(before);
      expect(held.map((m) => m.kind)).toEqual(["text", "image"]);
      expect(held[1]?.sha256).toBe(fixtureSha256("png"));
    },
  );
});
