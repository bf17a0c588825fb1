/**
 * Everything `outbox-mcp` runs on, independent of the transport: a private media
 * directory, the channel pool, and a factory for servers sharing them.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type AdapterDescriptor, adapterSecrets } from "@outbox/core";
import { type ChannelPool, createChannelPool } from "./channel-pool.js";
import { createOutboxMcpServer } from "./create-server.js";
import { findMcpAdapters } from "./find-adapters.js";
import { startLines } from "./start-lines.js";

/** Options of {@link openOutboxMcp}. */
export interface OpenOutboxMcpOptions {
  /** Deliver to emulators on 127.0.0.1 (every platform's emulator is started up front). */
  emulator?: boolean;
  /** Environment to read each platform's settings (`OUTBOX_<PLATFORM>_TOKEN`, …) and `OUTBOX_ADAPTERS` from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Adapter packages or paths to offer beside the installed `@outbox/*` adapters (`--adapter`). */
  adapters?: readonly string[];
  /** Exactly the platforms offered, instead of finding the installed and named adapters. */
  descriptors?: readonly AdapterDescriptor[];
}

/** A running `outbox-mcp` core. */
export interface OutboxMcp {
  /** A new server (one per connection, or per request over stateless HTTP). */
  createServer(): McpServer;
  /** The adapters. */
  pool: ChannelPool;
  /** Private directory (0700) holding the per-call temp directories. */
  mediaDir: string;
  /** What the server tells clients: the platforms, and the emulator targets with `emulator`. */
  instructions: string;
  /** Close every adapter and emulator and remove the media directory. */
  close(): Promise<void>;
}

/** Sets up the media directory and adapters. */
export async function openOutboxMcp(options: OpenOutboxMcpOptions = {}): Promise<OutboxMcp> {
  const env = options.env ?? process.env;
  const descriptors =
    options.descriptors ??
    (await findMcpAdapters({ env, ...(options.adapters ? { adapters: options.adapters } : {}) }));
  const mediaDir = await mkdtemp(join(tmpdir(), "outbox-mcp-media-"));
  await chmod(mediaDir, 0o700);
  const pool = createChannelPool({
    emulator: options.emulator ?? false,
    env,
    descriptors,
    media: { localRoots: [mediaDir], workspaceDir: mediaDir },
  });
  let lines: string[] = [];
  try {
    lines = await startLines(pool, descriptors, env, options.emulator === true);
  } catch (error) {
    await pool.close();
    await rm(mediaDir, { recursive: true, force: true });
    throw error;
  }
  const secrets = adapterSecrets(descriptors, env);
  const instructions = lines.join("\n");
  return {
    createServer: () => createOutboxMcpServer({ pool, mediaDir, secrets, instructions }),
    pool,
    mediaDir,
    instructions,
    async close() {
      await pool.close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}
