import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixturePath } from "@outbox/conformance";
import type { FaultPlatform } from "./platforms.js";

/** The reply the fault tests send, its parts' markers and the workspace its image comes from. */
export interface ThreePartReply {
  /** One marker per part, in order: two texts, then the image (its file name). */
  markers: readonly [string, string, string];
  /** A fresh directory holding the image; the media policy's only root. */
  workspace: string;
  /** The reply for a platform. */
  reply(platform: FaultPlatform): { text: string };
}

/**
 * Two text parts, each near the platform's chunk length (so neither shares a message or becomes
 * a caption), then an image: the parts are marked `<prefix>0x`, `<prefix>1x`, `<prefix>2x`, so
 * each test counts how often a part shows without mistaking another test's for its own.
 */
export function threePartReply(prefix: string): ThreePartReply {
  const markers = [`${prefix}0x`, `${prefix}1x`, `${prefix}2x`] as const;
  const workspace = mkdtempSync(join(tmpdir(), `outbox-${prefix}-`));
  copyFileSync(fixturePath("png"), join(workspace, `${markers[2]}.png`));
  const paragraph = (platform: FaultPlatform, marker: string) =>
    `${marker} ${"lorem ".repeat(Math.floor((platform.chunk * 0.8) / 6))}`;
  return {
    markers,
    workspace,
    reply: (platform) => ({
      text: `${paragraph(platform, markers[0])}\n\n${paragraph(platform, markers[1])}\n\nMEDIA:./${markers[2]}.png`,
    }),
  };
}
