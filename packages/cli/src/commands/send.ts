/**
 * `outbox send <platform>`: deliver one reply for real with the token from the environment,
 * or to the platform's emulator with `--emulator`. Exit 0 when every part is delivered,
 * 1 when some are, 2 when none are or the input is bad.
 */
import {
  type ChannelAdapter,
  type EmulatedChannel,
  type MediaPolicy,
  type ReplyPayloadInput,
  readAdapterEnv,
  type Target,
} from "@outbox/core";
import { explain } from "../output/explain.js";
import { printReport, reportJson } from "../output/report.js";
import type { Terminal } from "../output/terminal.js";
import { UsageError } from "../output/usage-error.js";
import type { Platform } from "../platforms.js";
import { readTextFile } from "./read-input.js";

/** Options of `outbox send`. */
export interface SendCommandOptions {
  /** Chat / channel id. Required unless `emulator`. */
  to?: string;
  /** Thread or topic id. */
  thread?: string;
  /** Message id to reply to. */
  replyTo?: string;
  /** Media references: https URLs or local paths. */
  media?: string[];
  /** Send audio as a voice note. */
  voice?: boolean;
  /** Directories local media may come from. Default: the working directory. */
  root?: string[];
  /** Deliver to a local emulator instead of the platform. */
  emulator?: boolean;
  /** Print JSON instead of the table. */
  json?: boolean;
}

/** Send; resolves the exit code. */
export async function runSend(
  term: Terminal,
  platform: Platform,
  textArg: string | undefined,
  options: SendCommandOptions,
): Promise<number> {
  const payload = await buildPayload(textArg, options);
  const media: MediaPolicy = { workspaceDir: process.cwd(), localRoots: options.root ?? [process.cwd()] };
  const channel = options.emulator ? await platform.createEmulatedChannel({ media }) : undefined;
  const adapter = channel?.adapter ?? (await realAdapter(platform, options, media));
  try {
    const receipt = await adapter.send(payload, target(options, channel));
    const report = {
      platform: platform.name,
      receipt,
      ...(channel ? { observed: channel.observe() } : {}),
    };
    if (options.json) term.out(JSON.stringify(reportJson(report), null, 2));
    else printReport(term, report, { maxLines: 20, platform, explainFailures: false });
    for (const failure of receipt.failures)
      term.err(
        `outbox: part ${failure.part} failed: ${explain(failure.error, channel ? "emulator" : platform, {
          ambiguous: failure.ambiguous === true,
          delivered: receipt.messages.length,
        })}`,
      );
    if (receipt.ok) return 0;
    return receipt.messages.length > 0 ? 1 : 2;
  } finally {
    await (channel ? channel.close() : adapter.close?.());
  }
}

async function buildPayload(
  textArg: string | undefined,
  options: SendCommandOptions,
): Promise<ReplyPayloadInput> {
  const text = textArg === "-" ? await readTextFile("-") : textArg;
  if ((text === undefined || text.trim() === "") && !options.media?.length)
    throw new UsageError(
      "nothing to send",
      "give the reply text, - to read it from standard input, or --media <url|path>",
    );
  return {
    ...(text === undefined ? {} : { text }),
    ...(options.media?.length ? { mediaUrls: options.media } : {}),
    ...(options.voice ? { audioAsVoice: true } : {}),
    ...(options.replyTo === undefined ? {} : { replyToId: options.replyTo }),
  };
}

async function realAdapter(
  platform: Platform,
  options: SendCommandOptions,
  media: MediaPolicy,
): Promise<ChannelAdapter> {
  const reading = readAdapterEnv(platform, process.env);
  if (!reading.ok) {
    const names = reading.missing.map((variable) => variable.name);
    throw new UsageError(
      `${names.join(" and ")} ${names.length === 1 ? "is" : "are"} not set`,
      `${reading.missing.map((variable) => `export ${variable.name}=<${variable.secret ? "token" : "value"}> (${variable.help})`).join("; ")}, or add --emulator to send to a local emulator`,
    );
  }
  if (!options.to)
    throw new UsageError("--to is missing", `pass --to <id>: use ${platform.target.description}`);
  return platform.createAdapter(reading.config, media);
}

function target(options: SendCommandOptions, channel: EmulatedChannel | undefined): Target {
  const to = options.to ?? channel?.target.to ?? "";
  const current = channel?.target.currentMessageId;
  return {
    to,
    ...(options.thread ? { thread: options.thread } : {}),
    ...(current ? { currentMessageId: current } : {}),
  };
}
