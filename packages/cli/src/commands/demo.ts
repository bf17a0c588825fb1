/**
 * `outbox demo`: every platform's emulator started in-process, the showcase reply delivered
 * through each real adapter, and per platform what arrived beside the receipt. With `--web`,
 * the web inbox too: the showcase is delivered there, its link printed, and the inbox stays up
 * until Ctrl-C so a person can look at it in a browser.
 */
import { conformanceMedia, fixturesDir } from "@outbox/conformance";
import { type EmulatedChannel, normalizePayload } from "@outbox/core";
import { demoLookup } from "../demo/lookup.js";
import { METADATA_HOST, showcaseReply } from "../demo/showcase.js";
import { startWebDemo, untilInterrupted, type WebDemo } from "../demo/web-inbox.js";
import { startProgress } from "../output/progress.js";
import { type DeliveryReport, printReport, reportJson } from "../output/report.js";
import type { Terminal } from "../output/terminal.js";
import { UsageError } from "../output/usage-error.js";
import { NotInstalledError, type Platform, type Platforms } from "../platforms.js";

/** Options of `outbox demo`. */
export interface DemoOptions {
  /** Print JSON instead of the table. */
  json?: boolean;
  /** Only this platform. */
  platform?: string;
  /** Also deliver to the web inbox, print its link, and keep it up until Ctrl-C. */
  web?: boolean;
  /** Port of the web inbox (`--web`); default a free one. */
  webPort?: string;
}

/**
 * The longest chunk the showcase is sized past. A platform taking longer messages (Matrix:
 * 61,440 bytes) gets the same reply whole: growing it past such a limit would have every
 * other platform post dozens of messages under its flood limits.
 */
export const SHOWCASE_MAX_CHUNK = 10_000;

/** Run the demo; resolves the exit code (0: every platform produced a receipt). */
export async function runDemo(term: Terminal, options: DemoOptions, platforms: Platforms): Promise<number> {
  const selected = options.platform === undefined ? platforms.list : [platforms.get(options.platform)];
  const progress = startProgress(term, "starting the emulators and the fixture media host…");
  const media = await conformanceMedia();
  const lookup = demoLookup(media.policy.lookup);
  const policy = { ...media.policy, workspaceDir: fixturesDir, lookup };
  const channels: Array<{ platform: Pick<Platform, "name">; channel: EmulatedChannel }> = [];
  let web: WebDemo | undefined;
  let crashed = 0;
  /** Platforms whose adapter is not installed, with the command adding it. */
  const missing: Array<{ platform: string; install: string }> = [];
  try {
    for (const platform of selected) {
      try {
        const channel = await platform.createEmulatedChannel({ media: policy, ca: media.ca, lookup });
        channels.push({ platform, channel });
      } catch (error) {
        // Asked for by name, a missing adapter is the error; otherwise the demo runs on what is installed.
        if (!(error instanceof NotInstalledError) || options.platform !== undefined) throw error;
        missing.push({ platform: platform.name, install: error.install });
      }
    }
    if (channels.length === 0 && !options.web)
      throw new UsageError(
        "no platform adapter is installed",
        [
          ...missing.map((entry) => `${entry.install} (${entry.platform})`),
          "npm install @outbox/telegram (or any @outbox adapter)",
        ].join(", or "),
      );
    // The chats' limits size the showcase (the web takes any length; it is not split there).
    const limits = channels.map(({ channel }) => chunkLimit(channel)).filter((n) => n <= SHOWCASE_MAX_CHUNK);
    const limit = limits.length > 0 ? Math.max(...limits) : 4000;
    const whole = channels.filter(({ channel }) => chunkLimit(channel) > limit);
    if (options.web) {
      web = await startWebDemo({ media: policy, port: webPort(options.webPort) });
      channels.push({ platform: { name: "web" }, channel: web.channel });
    }
    const text = showcaseReply({ imageUrl: media.url("png") }, limit);
    let finished = 0;
    const names = channels.map(({ platform }) => platform.name).join(", ");
    progress.update(`delivering the showcase reply to ${names}…`);
    const outcomes = await Promise.all(
      channels.map(async ({ platform, channel }): Promise<DeliveryReport | undefined> => {
        try {
          const receipt = await channel.adapter.send({ text }, channel.target);
          return { platform: platform.name, receipt, observed: channel.observe() };
        } catch (error) {
          term.err(`outbox demo: ${platform.name} threw instead of returning a receipt: ${String(error)}`);
          return undefined;
        } finally {
          finished += 1;
          progress.update(`delivering the showcase reply to ${names}… ${finished}/${channels.length} done`);
        }
      }),
    );
    const reports = outcomes.filter((report) => report !== undefined);
    crashed = outcomes.length - reports.length;
    progress.done();
    const reply = normalizePayload({ text }, { workspaceDir: fixturesDir });
    if (options.json) {
      const inbox = web ? { web: { url: web.url } } : {};
      const absent = missing.length > 0 ? { notInstalled: missing } : {};
      term.out(JSON.stringify({ reply, platforms: reports.map(reportJson), ...absent, ...inbox }, null, 2));
    } else {
      printIntro(term, reply, channels.length);
      for (const { platform, channel } of whole)
        term.out(
          term.colors.dim(
            `  ${platform.name} takes messages up to ${chunkLimit(channel)} long: the reply arrives there whole`,
          ),
        );
      for (const report of reports) {
        term.out("");
        const platform = platforms.list.find((candidate) => candidate.name === report.platform);
        printReport(term, report, { maxLines: 12, ...(platform ? { platform } : {}) });
      }
      for (const entry of missing) {
        term.out("");
        term.out(
          `${term.colors.bold(entry.platform)}: ${term.colors.dim(`not installed; add it with ${entry.install}`)}`,
        );
      }
    }
    if (web) {
      term.out("");
      term.out(`${term.colors.bold("web inbox:")} ${web.url}`);
      term.out(
        term.colors.dim("open the link in a browser (the token opens this conversation only); Ctrl-C stops"),
      );
      await untilInterrupted();
    }
  } finally {
    progress.done();
    await Promise.all(
      channels.filter((c) => c.channel !== web?.channel).map(({ channel }) => channel.close()),
    );
    await web?.close();
  }
  return crashed > 0 ? 1 : 0;
}

/** The `--web-port` value as a port number. */
function webPort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(
      `--web-port "${value}" is not a port`,
      "pass a number from 1 to 65535, or leave it out for a free port",
    );
  return port;
}

/** The size at which a platform splits text. */
function chunkLimit(channel: EmulatedChannel): number {
  const { text } = channel.adapter.capabilities;
  return text.chunkLength ?? text.maxLength;
}

function printIntro(term: Terminal, reply: ReturnType<typeof normalizePayload>, count: number): void {
  const c = term.colors;
  term.out(c.bold(`Outbox demo: one assistant reply, ${count} platform${count === 1 ? "" : "s"}`));
  term.out(
    c.dim(`everything on 127.0.0.1: real client libraries talking to strict emulators; no token, no network`),
  );
  term.out("");
  term.out(
    [
      `reply: ${reply.text.length} chars of Markdown`,
      `${reply.mediaUrls.length} media`,
      reply.audioAsVoice ? "audio as voice note" : "",
      reply.replyToCurrent ? "replying to the inbound message" : "",
      `${reply.embeds.length} embed (web surface only: chats strip it)`,
    ]
      .filter(Boolean)
      .join(" · "),
  );
  for (const ref of reply.mediaUrls) term.out(c.dim(`  MEDIA: ${ref}`));
  term.out(c.dim(`  (${METADATA_HOST} resolves to the cloud metadata address 169.254.169.254 in this demo)`));
}
