/**
 * A worker process for tests and the bench: `startWorkerProcess(options)` spawns this file,
 * which creates the outbox and a worker from the options and reports `ready` over IPC. With
 * `killAt: { part, step }` it kills itself with SIGKILL right before the `step`-th step
 * (0 = `pace`) of the attempt that delivers plan part `part`, so crash points are exact, not
 * timed, and a retried 429 (a new attempt, starting at `pace` again) does not move them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createOutbox } from "../../src/index.js";
import { adapterFactories, type PlatformSpec } from "./platforms.js";

/** What a worker process is told. */
export interface WorkerProcessOptions extends PlatformSpec {
  redis: string;
  prefix: string;
  partitions?: number;
  /** Kill this process right before this step of a delivery (see the module comment). */
  killAt?: { part: number; step: number };
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

/** A running worker process. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the exit signal or code. */
  exited: Promise<string>;
  /** Close the worker gracefully and wait for the exit. */
  stop(): Promise<string>;
}

/** Spawn a worker process and wait until it is ready. */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=source", fileURLToPath(import.meta.url)],
    {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: { ...process.env, OUTBOX_QUEUE_WORKER: JSON.stringify(options) },
    },
  );
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? String(code))),
  );
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    exited.then((how) => reject(new Error(`worker process exited before ready (${how})`)));
  });
  return {
    child,
    exited,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.send("stop");
      return exited;
    },
  };
}

async function main(options: WorkerProcessOptions): Promise<void> {
  const outbox = await createOutbox({
    adapters: adapterFactories(options),
    connection: options.redis,
    prefix: options.prefix,
    ...(options.partitions === undefined ? {} : { partitions: options.partitions }),
  });
  // The part being sent and the step of its current attempt (a `pace` step starts an attempt).
  let part = -1;
  let step = -1;
  const worker = await outbox.createWorker({
    ...(options.lockDurationMs === undefined ? {} : { lockDurationMs: options.lockDurationMs }),
    ...(options.stalledIntervalMs === undefined ? {} : { stalledIntervalMs: options.stalledIntervalMs }),
    onStep: (at) => {
      if (at.kind === "pace") [part, step] = [at.part ?? part, 0];
      else step += 1;
      if (part === options.killAt?.part && step === options.killAt.step) process.kill(process.pid, "SIGKILL");
    },
  });
  process.on("message", async () => {
    await worker.close();
    await outbox.close();
    process.exit(0);
  });
  process.send?.("ready");
}

if (process.env.OUTBOX_QUEUE_WORKER !== undefined && process.argv[1] === fileURLToPath(import.meta.url))
  await main(JSON.parse(process.env.OUTBOX_QUEUE_WORKER) as WorkerProcessOptions);
