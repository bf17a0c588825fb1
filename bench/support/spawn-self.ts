import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A benchmark script running as a child process. */
export interface SpawnedSelf {
  /** Everything the child wrote to stdout, once it exits (rejects on a non-zero exit). */
  done: Promise<string>;
  /** Stop the child (its output so far still resolves `done`). */
  kill: () => void;
}

/**
 * Run a benchmark script again as a child process (with `--expose-gc`, through tsx, on the
 * workspace sources), so that a measurement such as peak RSS is taken in a fresh process
 * while the parent serves it (an https file, an emulator). `onLine` sees the first line the
 * child prints, for a child that announces it is ready.
 */
export function spawnSelf(scriptUrl: string, args: string[], onLine?: (line: string) => void): SpawnedSelf {
  const script = fileURLToPath(scriptUrl);
  const proc = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", "--conditions=source", script, ...args],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let output = "";
  proc.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (onLine && output.includes("\n")) onLine(output.split("\n")[0] ?? "");
  });
  const done = new Promise<string>((resolve, reject) =>
    proc.on("close", (code, signal) =>
      code === 0 || signal ? resolve(output) : reject(new Error(`child exited with ${code}`)),
    ),
  );
  return { done, kill: () => proc.kill() };
}
