/**
 * Run the real `outbox` command as a user does: a child process, its stdout, stderr and
 * exit code. The sources run through tsx with the `source` condition, as bin/outbox.js
 * does inside the workspace.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Time limit of a test that spawns the command: generous, because the machine is shared and
 * each run starts Node, tsx and (for the demo) emulators that pace like the real platforms.
 */
export const SPAWN_TIMEOUT_MS = 240_000;

/** Absolute path of the CLI's entry point. */
export const mainPath = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
/** Absolute path of the `outbox` bin launcher. */
export const binPath = fileURLToPath(new URL("../../bin/outbox.js", import.meta.url));
/** The tsx loader, as a URL for `--import`. */
export const tsxLoader = import.meta.resolve("tsx");
/** The node arguments that run the CLI from source. */
export const nodeArgs = ["--conditions=source", "--import", tsxLoader, mainPath];

/** What a run printed and how it exited. */
export interface Run {
  /** Exit code. */
  code: number;
  /** Everything on stdout. */
  stdout: string;
  /** Everything on stderr. */
  stderr: string;
}

/** Options of {@link outbox}. */
export interface RunOptions {
  /** Written to standard input, then closed. */
  input?: string;
  /** Variables on top of a clean environment (no colour forcing, no tokens, no CI). */
  env?: Record<string, string>;
  /** Working directory. */
  cwd?: string;
}

/** The environment of a run: the test's, minus anything that changes colour or holds a token. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(CI|FORCE_COLOR|NO_COLOR|NODE_OPTIONS|VITEST.*|OUTBOX_\w+)$/.test(name),
    ),
  );
  return { ...env, ...extra };
}

/** Run `outbox <args>` and collect its output. */
export function outbox(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  return run(process.execPath, [...nodeArgs, ...args], options);
}

/** Run any program with a clean environment and collect its output. */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? process.cwd(),
      env: cleanEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/** Whether `text` holds an ANSI escape sequence (colour or style). */
export function hasAnsi(text: string): boolean {
  return text.includes("\u001b[");
}
