import { MediaError, type ReplyPayloadInput } from "@outbox/core";
import { expect } from "vitest";
import { fixturesDir, sha256Hex } from "../fixtures.js";
import { conformanceMedia, DECOY_HOST } from "../media-server.js";
import type { CaseContext, CaseDefinition } from "../types.js";
import { expectReceiptMatches, mediaMessages, type SendResult, send, visibleText } from "./helpers.js";

/** Each listed part failed with a `MediaError`, the text still went out, no media reached the platform. */
function expectRefused(result: SendResult, count: number, text: string): void {
  const { receipt, observed } = result;
  expect(receipt.ok, "receipt.ok with refused references").toBe(false);
  expect(receipt.failures, "one failure per refused reference").toHaveLength(count);
  for (const failure of receipt.failures) {
    expect(failure.error).toBeInstanceOf(MediaError);
    expect((failure.error as MediaError).reason).toBe("blocked");
  }
  expect(new Set(receipt.failures.map((f) => f.part)).size, "distinct parts").toBe(count);
  expect(mediaMessages(observed)).toEqual([]);
  expect(visibleText(observed)).toBe(text);
  expectReceiptMatches(result);
}

/** Send while watching the decoy: it must see no connection during the send. */
async function sendUnfetched(ctx: CaseContext, payload: ReplyPayloadInput): Promise<SendResult> {
  const media = await conformanceMedia();
  const before = media.decoy.connections();
  const result = await send(ctx, payload);
  expect(media.decoy.connections() - before, "connections to the decoy").toBe(0);
  return result;
}

/** Policy cases: blocked URLs and paths are never requested and are listed in `failures`. */
export const policyCases: CaseDefinition[] = [
  {
    id: "policy.blocked-url",
    checks:
      "URLs to a private IP, to a host resolving to one, over `http:` and to `localhost` are never requested (the decoy sees zero connections) and each is a `blocked` failure.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const media = await conformanceMedia();
      const result = await sendUnfetched(ctx, { text: "Policy check.", mediaUrls: media.decoy.blockedUrls });
      expectRefused(result, media.decoy.blockedUrls.length, "Policy check.");
    },
  },
  {
    id: "policy.blocked-path",
    checks:
      "A file outside `localRoots` and a `..` path are `blocked` failures; their bytes never reach the platform.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const media = await conformanceMedia();
      const traversal = `${fixturesDir}../package.json`;
      const result = await send(ctx, { text: "Path check.", mediaUrls: [media.outsideFile, traversal] });
      expectRefused(result, 2, "Path check.");
      const secret = sha256Hex(new TextEncoder().encode(media.outsideFileText));
      expect(ctx.observe().some((m) => m.sha256 === secret)).toBe(false);
    },
  },
  {
    id: "policy.media-line-path",
    checks:
      "A `MEDIA:` line naming a file outside `localRoots` is a `blocked` failure and the path never shows in the text.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const media = await conformanceMedia();
      const result = await send(ctx, { text: `Line check.\nMEDIA: ${media.outsideFile}` });
      expectRefused(result, 1, "Line check.");
      expect(
        ctx.observe().some((m) => (m.text ?? "").includes(media.outsideFile)),
        "the path shows in the text",
      ).toBe(false);
    },
  },
  {
    id: "policy.media-line-url",
    checks:
      "A `MEDIA:` line naming a URL on a host that resolves to a private address is a `blocked` failure: never requested (the decoy sees zero connections), the URL never shows in the text.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const media = await conformanceMedia();
      const url = media.decoy.blockedUrls.find((u) => new URL(u).hostname === DECOY_HOST) as string;
      const result = await sendUnfetched(ctx, { text: `URL check.\nMEDIA: ${url}` });
      expectRefused(result, 1, "URL check.");
      expect(
        ctx.observe().some((m) => (m.text ?? "").includes(DECOY_HOST)),
        "the URL shows in the text",
      ).toBe(false);
    },
  },
];
