/** `outbox parse [file|-]`: the normalized payload of a reply, as JSON. */
import { neutralizeMediaDirectives, normalizePayload } from "@outbox/core";
import type { Terminal } from "../output/terminal.js";
import { UsageError } from "../output/usage-error.js";
import { readTextFile } from "./read-input.js";

/** Options of `outbox parse`. */
export interface ParseCommandOptions {
  /** Lift Markdown images with a public https URL into media. */
  markdownImages?: boolean;
  /** The text comes from outside (a web page, a tool): neutralize its `MEDIA:` lines first. */
  untrusted?: boolean;
}

/** Parse a reply file (or standard input) and print the payload every adapter consumes. */
export async function runParse(
  term: Terminal,
  file: string | undefined,
  options: ParseCommandOptions,
): Promise<number> {
  if (file === undefined && process.stdin.isTTY)
    throw new UsageError(
      "no reply given",
      "pass a file, - to type the reply, or pipe it: echo 'Hi' | outbox parse",
    );
  const raw = await readTextFile(file ?? "-");
  const text = options.untrusted ? neutralizeMediaDirectives(raw) : raw;
  const payload = normalizePayload({ text }, { markdownImages: options.markdownImages === true });
  term.out(JSON.stringify(payload, null, 2));
  return 0;
}
