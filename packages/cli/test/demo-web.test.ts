/**
 * `outbox demo --web` as a person uses it: the command delivers the showcase, prints the inbox
 * link and keeps it up; the link opens in Chromium, where the showcase renders (read back from
 * the DOM: formatting, the reply, every file with the bytes the browser fetched, the framed
 * canvas), and a full-page screenshot is written to `.outbox-tmp/artifacts/web-showcase.png`
 * for a reviewer. SIGTERM stops the command cleanly.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  browserMissing,
  decodeInbox,
  launchBrowser,
  snapshotInbox,
  waitForImages,
} from "@outbox/web/conformance";
import { afterAll, describe, expect, it } from "vitest";
import { CANVAS_PATH } from "../src/demo/canvas.js";
import { cleanEnv, nodeArgs, SPAWN_TIMEOUT_MS } from "./support/run-outbox.js";

const repoRoot = new URL("../../..", import.meta.url).pathname;
/** Where the screenshot goes (ignored by git; CI keeps it as a build artifact). */
const SCREENSHOT = join(repoRoot, ".outbox-tmp/artifacts/web-showcase.png");
const noBrowser = browserMissing();

/** Start `outbox demo --web`; resolves its link once printed. */
function startDemo(): {
  child: ChildProcess;
  url: Promise<string>;
  output: () => string;
  exit: Promise<number>;
} {
  const child = spawn(process.execPath, [...nodeArgs, "demo", "--web"], {
    env: cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const found = /^web inbox: (http:\/\/127\.0\.0\.1:\d+\/\S+)$/m.exec(output);
      if (found?.[1]) resolve(found[1]);
    });
    child.once("exit", (code) =>
      reject(new Error(`outbox demo --web exited (${code}) before printing its link:\n${output}`)),
    );
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exit = new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? -1)));
  return { child, url, output: () => output, exit };
}

describe.skipIf(noBrowser)(
  `outbox demo --web ${noBrowser ? `(skipped: ${noBrowser})` : "in Chromium"}`,
  { timeout: SPAWN_TIMEOUT_MS },
  () => {
    const demo = startDemo();
    afterAll(async () => {
      if (demo.child.exitCode === null) demo.child.kill("SIGTERM");
      await demo.exit;
    });

    it("prints the inbox link; the showcase renders in the browser; a screenshot is kept", async () => {
      const url = await demo.url;
      expect(url).toMatch(/\/c\/demo\/\?token=[\w-]{43}$/);
      const output = demo.output();
      expect(output).toMatch(/^web {2}[◐✓✗] \d+ delivered/m);
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
        page.setDefaultTimeout(60_000);
        await page.goto(url);
        await page.waitForSelector("#ob-status[data-state=live]");
        const canvas = page.frameLocator("figure.ob-embed iframe");
        await expect(canvas.locator("h1").textContent()).resolves.toBe("p99 latency, last 12 regions (ms)");
        await waitForImages(page, 60_000);
        const broken = await page.evaluate(
          "Array.from(document.images).filter((i) => i.naturalWidth === 0).length",
        );
        expect(broken, "images that did not load").toBe(0);

        const messages = decodeInbox(await snapshotInbox(page)).filter((m) => m.author !== "user");
        const first = messages[0];
        expect(first?.replyTo, "the first message replies to the person's").toBe("inbound-1");
        // The web takes the whole text as the caption of the first image (no caption limit there).
        const shown = first?.text ?? first?.caption ?? "";
        const bold = first?.formatting?.find(
          (s) => s.kind === "bold" && shown.slice(s.offset, s.offset + s.length) === "done",
        );
        expect(bold, "**done** shows bold").toBeDefined();
        const media = messages
          .flatMap((m) => (m.kind === "album" ? (m.items ?? []) : [m]))
          .filter((m) => m.fileName);
        for (const file of ["image.png", "doc.pdf", "photo.jpg", "clip.mp4", "voice.ogg", "tone.wav"]) {
          const item = media.find((m) => m.fileName === file);
          expect(item?.status, `${file}: fetched by the browser`).toBe(200);
          expect(item?.sha256, `${file}: sha256`).toMatch(/^[0-9a-f]{64}$/);
        }
        expect(media.find((m) => m.fileName === "voice.ogg")?.kind).toBe("voice");
        expect(messages.some((m) => m.kind === "album")).toBe(true);
        const embeds = messages.flatMap((m) => m.embeds ?? []);
        expect(embeds).toEqual([
          { shown: "frame", url: CANVAS_PATH, sandbox: "allow-scripts", height: 220, title: "Latency" },
        ]);
        const text = messages.map((m) => `${m.text ?? ""} ${m.caption ?? ""}`).join(" ");
        expect(text).not.toMatch(/\[embed|MEDIA:|\[\[/);

        mkdirSync(join(repoRoot, ".outbox-tmp/artifacts"), { recursive: true });
        // A viewport as tall as the page: the sticky header stays on top, and the canvas (a
        // frame in another process) is painted, which a scrolled full-page capture can miss.
        const height = (await page.evaluate("document.documentElement.scrollHeight")) as number;
        await page.setViewportSize({ width: 900, height });
        await page.evaluate("window.scrollTo(0, 0)");
        await canvas.locator("svg").waitFor();
        await page.screenshot({ path: SCREENSHOT });
      } finally {
        await browser.close();
      }
      demo.child.kill("SIGTERM");
      expect(await demo.exit, "SIGTERM stops the demo cleanly").toBe(0);
    });
  },
);
