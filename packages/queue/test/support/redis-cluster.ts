/**
 * A real Redis Cluster for a test: three masters (Debian's redis-server) on free ports of
 * 127.0.0.1, each with cluster mode, an append-only file fsynced on every write and its own
 * temporary directory, joined by `redis-cli --cluster create` (no replicas) and waited for
 * until every node reports `cluster_state:ok`. A master can be killed and started again on
 * its port from its AOF and `nodes.conf`, within the node timeout, so the others never
 * declare it failed. Skips (with the reason) when redis-server or redis-cli is missing.
 */
import { type ChildProcess, execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { freePort, launch, redisMissing, stopped } from "./redis-server.js";

/** Where the Debian package installs redis-cli. */
export const REDIS_CLI = process.env.OUTBOX_REDIS_CLI ?? "/usr/bin/redis-cli";

/** Why cluster tests cannot run here, or `undefined` when they can. */
export const clusterMissing: string | undefined =
  redisMissing ??
  (existsSync(REDIS_CLI) ? undefined : `redis-cli not found at ${REDIS_CLI} (apt-get install redis-tools)`);

/**
 * How long a master may be unreachable before the others mark it failed (ms). A restart takes
 * well under a second; past this the cluster would refuse every command (no replica takes over).
 */
const NODE_TIMEOUT_MS = 15_000;

/** A running cluster. */
export interface RedisCluster {
  /** The masters' addresses (startup nodes for ioredis). */
  nodes: Array<{ host: string; port: number }>;
  /** The port of the master serving `slot`. */
  masterOf(slot: number): Promise<number>;
  /**
   * Kill master `port` with SIGKILL, start it again on its data after `downMs` (the outage:
   * its connections are refused meanwhile), wait until the cluster is ok.
   */
  crash(port: number, downMs?: number): Promise<void>;
  /** Stop every master and remove their directories. */
  stop(): Promise<void>;
}

interface Master {
  port: number;
  dir: string;
  child: ChildProcess;
}

async function start(port: number, dir: string): Promise<ChildProcess> {
  const child = await launch(port, dir, true, [
    "--cluster-enabled",
    "yes",
    "--cluster-config-file",
    "nodes.conf",
    "--cluster-node-timeout",
    String(NODE_TIMEOUT_MS),
  ]);
  child.removeAllListeners("exit");
  return child;
}

/** Ask every master `CLUSTER INFO` until each says the cluster is ok with all slots assigned. */
async function untilOk(ports: readonly number[]): Promise<void> {
  const clients = ports.map((port) => new Redis({ port, host: "127.0.0.1", lazyConnect: true }));
  try {
    for (;;) {
      const infos = await Promise.all(clients.map((client) => client.cluster("INFO") as Promise<string>));
      if (
        infos.every(
          (info) => info.includes("cluster_state:ok") && info.includes("cluster_slots_assigned:16384"),
        )
      )
        return;
      // Gossip settles on its own schedule: ask again shortly (polling, not a guess of the time).
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    for (const client of clients) client.disconnect();
  }
}

/** Start a cluster of `masters` masters (see module doc). */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const nodes: Master[] = [];
  for (let i = 0; i < masters; i += 1) {
    const dir = mkdtempSync(join(tmpdir(), "outbox-cluster-"));
    const port = await freePort();
    nodes.push({ port, dir, child: await start(port, dir) });
  }
  const ports = nodes.map((node) => node.port);
  await promisify(execFile)(REDIS_CLI, [
    "--cluster",
    "create",
    ...ports.map((port) => `127.0.0.1:${port}`),
    "--cluster-replicas",
    "0",
    "--cluster-yes",
  ]);
  await untilOk(ports);
  return {
    nodes: ports.map((port) => ({ host: "127.0.0.1", port })),
    async masterOf(slot) {
      const client = new Redis({ port: ports[0], host: "127.0.0.1" });
      try {
        const ranges = await client.cluster("SLOTS");
        const master = ranges.find(([from, to]) => slot >= from && slot <= to)?.[2];
        if (master === undefined) throw new Error(`no master serves slot ${slot}`);
        return master[1];
      } finally {
        client.disconnect();
      }
    },
    async crash(port, downMs = 0) {
      const node = nodes.find((candidate) => candidate.port === port);
      if (node === undefined) throw new Error(`no master on port ${port}`);
      await stopped(node.child, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, downMs));
      node.child = await start(node.port, node.dir);
      await untilOk(ports);
    },
    async stop() {
      await Promise.all(nodes.map((node) => stopped(node.child)));
      for (const node of nodes) rmSync(node.dir, { recursive: true, force: true });
    },
  };
}
