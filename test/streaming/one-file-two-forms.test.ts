/**
 * Issue 21, item 1: one file named in two forms (a `MEDIA:` line or `mediaUrls` reference and
 * a `media[]` attachment: its path, a symlink to it, its inline bytes) is one media: the
 * chat holds it once, for `send` and for `deliverAgentRun` in every mode.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentEvent, deliverAgentRun, type EmulatedChannel, type MediaAttachment } from "@outbox/core";
import { createEmulatedChannel as discord } from "@outbox/discord/testing";
import { createEmulatedChannel as slack } from "@outbox/slack/testing";
import { createEmulatedChannel as telegram } from "@outbox/telegram/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { png, view } from "./channels.js";

/** The workspace: `x.png` (a copy of the PNG fixture) and `link.png`, a symlink to it. */
let ws: string;
beforeAll(() => {
  ws = mkdtempSync(join(tmpdir(), "outbox-two-forms-"));
  copyFileSync(png.path, join(ws, "x.png"));
  symlinkSync(join(ws, "x.png"), join(ws, "link.png"));
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const factories = { telegram, slack, discord };

/** The attachment forms of x.png a tool or a payload may carry. */
const attachments: Array<[string, () => MediaAttachment]> = [
  ["its absolute path", () => ({ mimeType: "image/png", filePath: join(ws, "x.png") })],
  ["a symlink to it", () => ({ mimeType: "image/png", filePath: join(ws, "link.png") })],
  ["its inline bytes", () => ({ mimeType: "image/png", data: readFileSync(png.path) })],
];

async function* script(events: AgentEvent[]): AsyncGenerator<AgentEvent> {
  yield* events;
}

describe.each(Object.entries(factories))("one file in two forms through the %s emulator", (_name, open) => {
  let channel: EmulatedChannel;
  beforeEach(async () => {
    channel = await open({ media: { localRoots: [ws], workspaceDir: ws } });
  });
  afterEach(async () => {
    await channel.close();
  });

  it.each(attachments)("send: a MEDIA: line and %s deliver x.png once", async (_form, attachment) => {
    const receipt = await channel.adapter.send(
      { text: "Hi\nMEDIA:./x.png", media: [attachment()] },
      channel.target,
    );
    expect(receipt.ok).toBe(true);
    const seen = view(channel.observe());
    expect(seen.files).toEqual([png.sha]);
    expect(seen.words).toEqual(["Hi"]);
  });

  it("send: mediaUrls naming the symlink and the file deliver it once", async () => {
    const receipt = await channel.adapter.send(
      { text: "Hi", mediaUrls: ["./link.png", join(ws, "x.png")] },
      channel.target,
    );
    expect(receipt.ok).toBe(true);
    expect(view(channel.observe()).files).toEqual([png.sha]);
  });

  describe.each(["final", "blocks", "preview"] as const)("deliverAgentRun, %s mode", (mode) => {
    it.each(attachments)(
      "a tool's attachment (%s) named by the reply is delivered once",
      async (_form, attachment) => {
        const receipt = await deliverAgentRun(
          script([
            { type: "tool_use", toolName: "draw" },
            { type: "tool_result", toolName: "draw", media: [attachment()] },
            { type: "text", text: "Here it is:\nMEDIA:./x.png\n\n" },
            { type: "text", text: "Done." },
            { type: "done" },
          ]),
          channel.adapter,
          channel.target,
          // The workspace is the adapter's (its media policy): the run compares what it loaded.
          { mode, minChars: 5, idleMs: 0 },
        ).receipt;
        expect(receipt.ok).toBe(true);
        const seen = view(channel.observe());
        expect(seen.files).toEqual([png.sha]);
        expect(seen.words).toEqual(["Here", "it", "is:", "Done."]);
      },
    );
  });
});
