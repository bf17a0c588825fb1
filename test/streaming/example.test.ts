import { fixtureSha256 } from "@outbox/conformance";
import { describe, expect, it } from "vitest";
import { streamToEmulators } from "../../examples/stream-agent-run.js";
import { view } from "./channels.js";

describe("examples/stream-agent-run.ts", () => {
  it("streams the mocked AI SDK run to the three emulators: every block once, the tool's chart once", {
    timeout: 60_000,
  }, async () => {
    const results = await streamToEmulators("blocks");
    expect(results.map((result) => result.platform)).toEqual(["telegram", "slack", "discord"]);
    for (const { platform, receipt, observed } of results) {
      expect(receipt, platform).toMatchObject({ ok: true, mode: "blocks", end: "done" });
      const seen = view(observed);
      expect(seen.files, platform).toEqual([fixtureSha256("png")]);
      expect(seen.words.join(" "), platform).toBe(
        "Let me pull the numbers and draw them. Q3 revenue grew 12%. Q2 1.00 Q3 1.12 The chart:",
      );
    }
  });
});
