/**
 * `loadMediaInputs` through the real loader: the platform's largest upload caps every
 * reference (https URL, local file, inline bytes), measured by the loader itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMediaInputs } from "../../src/engine/load-media-inputs.js";
import type { MediaPolicy } from "../../src/media/types.js";
import { type Harness, serve, startHarness } from "../media/helpers/harness.js";
import { png } from "../media/helpers/samples.js";
import { testCapabilities } from "./support/recording-transport.js";

/** testCapabilities' largest upload is 50 000 bytes. */
const OVER = Buffer.concat([png(), Buffer.alloc(50_001)]);
const UNDER = Buffer.concat([png(), Buffer.alloc(40_000)]);

let harness: Harness;
let dir: string;
let policy: (over?: MediaPolicy) => MediaPolicy;

beforeAll(async () => {
  harness = await startHarness();
  harness.route("/huge.png", serve(OVER, "image/png"));
  harness.route("/fits.png", serve(UNDER, "image/png"));
  dir = mkdtempSync(join(tmpdir(), "outbox-inputs-"));
  writeFileSync(join(dir, "huge.png"), OVER);
  writeFileSync(join(dir, "fits.png"), UNDER);
  policy = (over = {}) => harness.policy({ workspaceDir: dir, localRoots: [dir], ...over });
});
afterAll(async () => {
  await harness.close();
  rmSync(dir, { recursive: true, force: true });
});

const payload = (mediaUrls: string[], data: Uint8Array[] = []) => ({
  text: "",
  mediaUrls,
  media: data.map((bytes) => ({ mimeType: "image/png", data: bytes })),
  audioAsVoice: false,
  replyToCurrent: false,
  embeds: [],
});

describe("loadMediaInputs", () => {
  it("caps the real loader at the platform's largest upload, turns an over-limit https URL into a link, keeps order", async () => {
    const inputs = await loadMediaInputs(
      payload(
        [
          "https://media.outbox.test/huge.png",
          "./huge.png",
          "./fits.png",
          "https://media.outbox.test/fits.png",
          dir,
        ],
        [OVER, UNDER],
      ),
      testCapabilities(),
      policy({ maxBytes: 1e9 }),
      undefined,
    );
    expect(inputs.map((input) => input.status)).toEqual([
      "link",
      "failed",
      "loaded",
      "loaded",
      "failed",
      "failed",
      "loaded",
    ]);
    expect(inputs[0]).toMatchObject({
      url: "https://media.outbox.test/huge.png",
      reason: expect.stringMatching(/50000/),
    });
    expect(inputs[1]).toMatchObject({
      error: { code: "media_too_large", message: expect.stringMatching(/50000/) },
    });
    expect(inputs[2]).toMatchObject({ media: { size: UNDER.length, kind: "image" } });
    expect(inputs[4]).toMatchObject({ error: { code: "media_blocked" } });
    expect(inputs[5]).toMatchObject({ error: { code: "media_too_large" } });
  });

  it("keeps a lower policy cap", async () => {
    const inputs = await loadMediaInputs(
      payload(["./fits.png", "https://media.outbox.test/fits.png"], [UNDER]),
      testCapabilities(),
      policy({ maxBytes: 1_000 }),
      undefined,
    );
    expect(inputs.map((input) => input.status)).toEqual(["failed", "link", "failed"]);
    expect(inputs[0]).toMatchObject({
      error: { code: "media_too_large", message: expect.stringMatching(/1000/) },
    });
  });
});
