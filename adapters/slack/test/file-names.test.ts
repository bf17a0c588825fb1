import { createSlackAdapter } from "@outbox/slack";
import { startSlackEmulator } from "@outbox/slack/testing";
import { afterEach, describe, expect, it } from "vitest";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

describe("Slack: file names", () => {
  it("files.getUploadURLExternal and the shared file carry the cleaned name", async () => {
    const e = await startSlackEmulator({ channels: [{ id: "C1" }], rateLimits: false });
    open.push(e);
    const adapter = createSlackAdapter({ token: e.token, slackApiUrl: e.slackApiUrl });
    const receipt = await adapter.send(
      {
        text: "",
        media: [{ mimeType: "text/plain", data: Buffer.from("notes"), fileName: "..\\notes\u202Etxt.exe\0" }],
      },
      { to: "C1" },
    );
    expect(receipt.failures).toEqual([]);
    expect(e.observe("C1").map((m) => m.fileName)).toEqual(["notestxt.exe"]);
  });
});
