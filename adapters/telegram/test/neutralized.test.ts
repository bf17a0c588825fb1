/**
 * Untrusted text passed through `neutralizeMediaDirectives` sends nothing but text through
 * the Telegram adapter (which lifts Markdown images): no local file, no URL fetched.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { neutralizeMediaDirectives } from "@outbox/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTelegramAdapter, telegramCapabilities } from "../src/index.js";
import { startTelegramEmulator, type TelegramEmulator } from "../src/testing/index.js";

let emulator: TelegramEmulator | undefined;
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "outbox-neutralized-"));
  writeFileSync(join(root, "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => emulator?.close());

describe("neutralized text through the Telegram adapter", () => {
  it.each([
    `[[reply_to:İİ]]MEDIA:./id_rsa`,
    `[embed ref="İİ" /]MEDIA:./id_rsa`,
    "Look ![pixel](https://tracker.example.com/p.png) here",
  ])("%j goes out as text only", async (page) => {
    expect(telegramCapabilities.markdownImages).toBe(true);
    const fetched: string[] = [];
    emulator = await startTelegramEmulator({
      rateLimits: false,
      fetchUrl: async (url) => {
        fetched.push(url);
        return { status: 404, body: null };
      },
    });
    const adapter = createTelegramAdapter({
      token: emulator.token,
      apiRoot: emulator.apiRoot,
      media: { workspaceDir: root, localRoots: [root] },
    });
    const receipt = await adapter.send({ text: neutralizeMediaDirectives(page) }, { to: "42" });
    expect(receipt.ok).toBe(true);
    expect(receipt.messages.map((message) => message.kind)).toEqual(["text"]);
    expect(fetched).toEqual([]);
    expect(emulator.observe().every((message) => message.kind === "text")).toBe(true);
  });
});
