/**
 * `outbox demo` as a user runs it: the showcase reply through every registered adapter to
 * its emulator, printed per platform beside the receipt (plain when piped), and as JSON.
 */
import type { ObservedMessage } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { SHOWCASE_MAX_CHUNK } from "../src/commands/demo.js";
import { loadPlatforms } from "../src/platforms.js";
import { hasAnsi, outbox, SPAWN_TIMEOUT_MS } from "./support/run-outbox.js";

const { list: platforms } = await loadPlatforms([]);
/** Whether the showcase is longer than the platform's chunk limit (else it arrives whole). */
const splits = (name: string) => {
  const text = platforms.find((p) => p.name === name)?.capabilities.text;
  return text !== undefined && (text.chunkLength ?? text.maxLength) <= SHOWCASE_MAX_CHUNK;
};

type DemoJson = {
  reply: {
    text: string;
    mediaUrls: string[];
    audioAsVoice: boolean;
    replyToCurrent: boolean;
    embeds: unknown[];
  };
  platforms: Array<{
    platform: string;
    receipt: {
      ok: boolean;
      messages: Array<{ id: string; kind: string; part: number }>;
      degraded: Array<{ part: number; from: string; to: string; reason: string }>;
      failures: Array<{
        part: number;
        code: string;
        message: string;
        ref?: string;
        content?: string;
        ambiguous: boolean;
        retryable: boolean;
        action?: string;
      }>;
    };
    observed: ObservedMessage[];
  }>;
};

describe.concurrent("outbox demo", { timeout: SPAWN_TIMEOUT_MS }, () => {
  it("--json: every platform gets the showcase; receipts and observations agree", async () => {
    const run = await outbox(["demo", "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const demo = JSON.parse(run.stdout) as DemoJson;
    expect(demo.reply.audioAsVoice).toBe(true);
    expect(demo.reply.replyToCurrent).toBe(true);
    expect(demo.reply.embeds).toHaveLength(1);
    expect(demo.platforms.map((p) => p.platform)).toEqual(platforms.map((p) => p.name));
    // Every installed adapter is in the demo, Matrix too (its long limit once kept it out).
    expect(demo.platforms.map((p) => p.platform)).toEqual(expect.arrayContaining(["matrix", "whatsapp"]));
    for (const { platform, receipt, observed } of demo.platforms) {
      const caps = platforms.find((p) => p.name === platform)?.capabilities;
      if (!caps) throw new Error(`no descriptor for ${platform}`);
      // WAV goes where a kind takes it (WhatsApp takes it in none: a failure of its own).
      const takesWav = ["audio", "document"].some(
        (kind) => caps.media.formats?.[kind as "audio"]?.includes("audio/wav") ?? true,
      );
      // The text is longer than every platform's limit up to SHOWCASE_MAX_CHUNK: those split it,
      // a platform taking longer messages (Matrix) shows it whole (as the first image's caption there).
      const holding = observed.filter((m) => /Region \d+/.test(m.text ?? m.caption ?? "")).length;
      if (splits(platform)) expect(holding, platform).toBeGreaterThanOrEqual(2);
      else expect(holding, platform).toBe(1);
      expect(
        observed.some((m) => m.kind === "album"),
        platform,
      ).toBe(caps.album !== null);
      const items = observed.flatMap((m) => [m, ...(m.items ?? [])]);
      for (const file of ["image.png", "doc.pdf", "photo.jpg", "clip.mp4", "voice.ogg", "tone.wav"])
        expect(
          items.some((m) => m.fileName === file),
          `${platform}: ${file} arrived`,
        ).toBe(file !== "tone.wav" || takesWav);
      if (!takesWav)
        expect(
          receipt.failures.map((f) => f.code),
          platform,
        ).toContain("media_unsupported_type");
      // A platform without replies (Teams) sends it without the quote, said in the receipt.
      if (caps.replies === false)
        expect(
          receipt.degraded.map((d) => d.from),
          platform,
        ).toContain("reply");
      else expect(observed[0]?.replyTo, `${platform}: the first message replies`).toBeDefined();
      expect(receipt.ok).toBe(false);
      expect(receipt.messages.length, platform).toBe(observed.length);
      const blocked = receipt.failures.filter((f) => f.code === "media_blocked").map((f) => f.ref);
      expect(blocked, platform).toEqual([
        "https://metadata.outbox.test/latest/meta-data/credentials.png",
        "/etc/passwd",
      ]);
      // Each failure says what the part held, whether it may have gone, whether a resend is
      // safe and what to do (core's receipt fields).
      for (const failure of receipt.failures.filter((f) => f.code === "media_blocked"))
        expect(failure, platform).toMatchObject({
          content: `media ${failure.ref}`,
          ambiguous: false,
          retryable: false,
          action: expect.stringMatching(/^the media policy refused the reference/),
        });
      expect(
        receipt.degraded.some((d) => d.from === "voice" && d.to === "audio"),
        platform,
      ).toBe(takesWav);
      const bold = observed[0]?.formatting?.find((span) => span.kind === "bold" && span.length === 4);
      expect(
        bold && (observed[0]?.text ?? observed[0]?.caption)?.slice(bold.offset, bold.offset + 4),
        `${platform}: **done** arrived bold`,
      ).toBe("done");
      const texts = observed.map((m) => m.text ?? m.caption ?? "").join("\n");
      expect(texts, "the embed is stripped").not.toContain("[embed");
      expect(texts).not.toContain("MEDIA:");
    }
  });

  it("piped: per platform, aligned rows of what arrived beside the receipt, with formatting marked up and no ANSI codes", async () => {
    const run = await outbox(["demo"]);
    expect(run.code).toBe(0);
    expect(hasAnsi(run.stdout + run.stderr)).toBe(false);
    for (const { name } of platforms)
      expect(run.stdout).toMatch(new RegExp(`^${name}  ◐ \\d+ delivered`, "m"));
    expect(run.stdout).toContain("voice → audio: audio/wav");
    expect(run.stdout).toMatch(/matrix takes messages up to \d+ long: the reply arrives there whole/);
    expect(run.stdout).toMatch(/failed +— +media_blocked: .*169\.254\.169\.254.*Fix: use a public https URL/);
    expect(run.stdout).toMatch(/failed +— +media_blocked: Local media path \/etc\/passwd .*Fix: /);
    // In each platform's table, the status and the receipt columns start at the same place on every row.
    const sections = run.stdout.split("\n\n").filter((part) => /^\w+ {2}[◐✓✗]/.test(part));
    expect(sections).toHaveLength(platforms.length);
    for (const section of sections) {
      const rows = section
        .split("\n")
        .filter((line) => /^ {2}\s*\d+ {2}(delivered|degraded|failed)/.test(line));
      expect(rows.length).toBeGreaterThan(5);
      const status = (line: string) => line.search(/(delivered|degraded|failed)/);
      const receipt = (line: string) =>
        line.search(/(delivered|degraded|failed) +\S/) +
        /(delivered|degraded|failed) +/.exec(line)![0].length;
      expect(new Set(rows.map(status)).size).toBe(1);
      expect(new Set(rows.map(receipt)).size).toBe(1);
    }
    expect(run.stdout).toMatch(/│ … \d+ more lines/);
    // What arrived, with the formatting the platform stored marked up, on every platform.
    const marked = (needle: string) => run.stdout.split(needle).length - 1;
    expect(marked("The deploy is **done**: _all_ checks green")).toBe(platforms.length);
    // A reply arriving whole shows its first lines only; Google Chat has no quote markup, so its quote arrives plain.
    const quoting = (name: string) => name !== "googlechat";
    expect(marked("│ > Rollbacks stay possible for 24 hours.")).toBe(
      platforms.filter((p) => splits(p.name) && quoting(p.name)).length,
    );
    expect(marked("│ Rollbacks stay possible for 24 hours.")).toBe(
      platforms.filter((p) => splits(p.name) && !quoting(p.name)).length,
    );
  });

  it("--platform picks one; an unknown one is bad input (exit 2, one line with the fix)", async () => {
    const [one, unknown] = await Promise.all([
      outbox(["demo", "--json", "--platform", "telegram"]),
      outbox(["demo", "--platform", "myspace"]),
    ]);
    expect(one.code).toBe(0);
    expect((JSON.parse(one.stdout) as DemoJson).platforms.map((p) => p.platform)).toEqual(["telegram"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    expect(unknown.stderr).toMatch(
      /no myspace adapter is installed \(installed: discord, googlechat, matrix, slack, teams, telegram, whatsapp\)\. Fix: npm install @outbox\/myspace, or name an adapter package or path with --adapter/,
    );
  });
});
