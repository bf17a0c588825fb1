/**
 * Where the CLI writes: stdout for results, stderr for errors and progress. Decides once
 * whether output is styled (a TTY, or `--color`), and redacts every token from every line
 * before it is written; error lines also go through core's `redactSecrets` (token shapes,
 * URL userinfo and query strings), results keep their URLs as they are.
 */
import { MIN_SECRET_LENGTH, REDACTED, redactSecrets } from "@outbox/core";
import pc from "picocolors";
import stringWidth from "string-width";
import type { Colors, FormatStyle } from "./formatted.js";

/** What a command writes through. */
export interface Terminal {
  /** Colour functions: real ones when styled, identity functions otherwise. */
  colors: Colors;
  /** How formatting spans are shown: styled in a TTY, marked up otherwise. */
  style: FormatStyle;
  /** Stderr is a TTY with a known width: a progress line may be drawn there. */
  interactive: boolean;
  /** Write one line (or several) to stdout. */
  out(text: string): void;
  /** Write one line to stderr. */
  err(text: string): void;
}

/** Options deciding how a terminal writes. */
export interface TerminalOptions {
  /** `--color` / `--no-color`; undefined: style when stdout is a TTY and `NO_COLOR` is unset. */
  color?: boolean | undefined;
  /** Values never to print (tokens); each is replaced by core's `REDACTED` marker. */
  secrets: readonly string[];
}

/** The terminal of this process. */
export function createTerminal(options: TerminalOptions): Terminal {
  const env = process.env;
  const styledOut = options.color ?? (Boolean(process.stdout.isTTY) && !env.NO_COLOR && env.TERM !== "dumb");
  const colors = pc.createColors(styledOut);
  const redact = redactor(options.secrets);
  return {
    colors,
    style: styledOut ? { mode: "tty", colors } : { mode: "plain" },
    // A terminal reporting no width (a bare pseudo-terminal) cannot redraw a line.
    interactive: Boolean(process.stderr.isTTY) && (process.stderr.columns ?? 0) > 0 && styledOut,
    out: (text) => process.stdout.write(`${redact(text)}\n`),
    err: (text) => process.stderr.write(`${redactSecrets(text, options.secrets)}\n`),
  };
}

/** A function replacing every occurrence of each secret (longest first) by core's `REDACTED` marker, and nothing else. */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const known = [...new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => known.reduce((out, secret) => out.split(secret).join(REDACTED), text);
}

/**
 * The values of every `OUTBOX_*_TOKEN` variable: what the CLI must never print, known before
 * any adapter loads. The commands that load adapters add the variables their descriptors
 * declare secret (core's `adapterSecrets`, as `outbox-mcp` reads them).
 */
export function envSecrets(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => /^OUTBOX_\w+_TOKEN$/.test(name) && value)
    .map(([, value]) => value as string);
}

/** Pad to a display width (wide characters and styles counted as the terminal shows them). */
export function padEnd(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - stringWidth(text)));
}

/** The display width of the widest of `texts`. */
export function widest(texts: readonly string[]): number {
  return texts.reduce((max, text) => Math.max(max, stringWidth(text)), 0);
}
