/**
 * A real redis-server for a test: a free port on 127.0.0.1, a temporary directory, no RDB
 * snapshots; with `aof` an append-only file fsynced on every write, so a restart keeps
 * every acknowledged write. Skips (with the reason) when redis-server is not installed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where the Debian package installs it (`.ci/run` installs it on CI). */
export const REDIS_SERVER = process.env.OUTBOX_REDIS_SERVER ?? "/usr/bin/redis-server";

/** Why Redis tests cannot run here, or `undefined` when they can. */
export const redisMissing: string | undefined = existsSync(REDIS_SERVER)
  ? undefined
  : `redis-server not found at ${REDIS_SERVER} (apt-get install redis-server, or set OUTBOX_REDIS_SERVER)`;

/** A running server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Stop it (SIGTERM: with AOF, everything acknowledged is on disk) and start it again on the same port and data. */
  restart(): Promise<void>;
  /** Freeze the server (SIGSTOP): connections stay open, nothing is answered, its clock runs on. */
  pause(): void;
  /** Let a paused server go on (SIGCONT). */
  resume(): void;
  /**
   * Kill it (SIGKILL: with AOF fsynced always, every acknowledged write is on disk) and start
   * it again after `downMs` (the outage; connections are refused meanwhile).
   */
  crash(downMs?: number): Promise<void>;
  /** Stop it and remove its directory. */
  stop(): Promise<void>;
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Start redis-server on `port` with its files in `dir`, resolving once it accepts connections. */
export function launch(port: number, dir: string, aof: boolean, extra: string[] = []): Promise<ChildProcess> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--dir", dir];
  args.push(...(aof ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]));
  args.push("--maxmemory-policy", "noeviction", ...extra);
  const child = spawn(REDIS_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.resume();
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
}

/** Stop `child` with `signal` (a paused one is let go first) and wait for its exit. */
export const stopped = (child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGCONT");
        child.kill(signal);
      });

/** Start a server (see module doc). */
export async function startRedis(options: { aof?: boolean } = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "outbox-redis-"));
  const port = await freePort();
  const aof = options.aof ?? false;
  let child = await launch(port, dir, aof);
  child.removeAllListeners("exit");
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart() {
      await stopped(child);
      child = await launch(port, dir, aof);
      child.removeAllListeners("exit");
    },
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
    async crash(downMs = 0) {
      await stopped(child, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, downMs));
      child = await launch(port, dir, aof);
      child.removeAllListeners("exit");
    },
    async stop() {
      await stopped(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
