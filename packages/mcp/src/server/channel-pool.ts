/**
 * The adapters `outbox-mcp` delivers through, built on first use per platform and closed
 * together: real ones from `OUTBOX_<PLATFORM>_TOKEN`, or emulated channels with `--emulator`.
 */
import { type ChannelAdapter, type EmulatedChannel, type MediaPolicy, PayloadError } from "@outbox/core";
import { type McpPlatform, mcpPlatforms } from "./platforms.js";

/** Options of {@link createChannelPool}. */
export interface ChannelPoolOptions {
  /** Deliver to emulators on 127.0.0.1 instead of the real platforms. */
  emulator?: boolean;
  /** Environment to read tokens from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Media policy of every adapter (its roots must include where tool media is written). */
  media: MediaPolicy;
  /** Platforms offered. Default {@link mcpPlatforms}. */
  platforms?: Readonly<Record<string, McpPlatform>>;
}

/** Adapters by platform. */
export interface ChannelPool {
  /** Platform names offered. */
  readonly names: string[];
  /** The adapter of a platform, built on first use. @throws PayloadError for an unknown or unconfigured platform. */
  get(platform: string): Promise<ChannelAdapter>;
  /** The emulated channels built so far (with `emulator`), by platform. */
  readonly emulated: ReadonlyMap<string, EmulatedChannel>;
  /** Close every adapter and emulator. */
  close(): Promise<void>;
}

/** Builds the pool. */
export function createChannelPool(options: ChannelPoolOptions): ChannelPool {
  const platforms = options.platforms ?? mcpPlatforms;
  const env = options.env ?? process.env;
  const adapters = new Map<string, Promise<ChannelAdapter>>();
  const emulated = new Map<string, EmulatedChannel>();
  const names = Object.keys(platforms);

  /** A missing adapter package becomes an error naming what to install. */
  function missing(name: string, platform: McpPlatform) {
    return (error: unknown): never => {
      if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw error;
      throw new PayloadError(
        `Platform ${name} needs ${platform.packages}: install them next to @outbox/mcp (npm install ${platform.packages}).`,
        [{ path: ["platform"], code: "not_installed", message: `install ${platform.packages}` }],
        { cause: error },
      );
    };
  }

  function build(name: string, platform: McpPlatform): Promise<ChannelAdapter> {
    if (options.emulator) {
      return platform.emulate({ media: options.media }).then(
        (channel) => {
          emulated.set(name, channel);
          return channel.adapter;
        },
        missing(name, platform),
      );
    }
    const token = env[platform.tokenEnv];
    if (token === undefined || token === "") {
      throw new PayloadError(
        `Platform ${name} is not configured: set ${platform.tokenEnv} in the server's environment (or start outbox-mcp with --emulator).`,
        [{ path: ["platform"], code: "not_configured", message: `${platform.tokenEnv} is not set.` }],
      );
    }
    return platform.connect(token, options.media).catch(missing(name, platform));
  }

  return {
    names,
    emulated,
    async get(platform) {
      const entry = Object.hasOwn(platforms, platform) ? platforms[platform] : undefined;
      if (entry === undefined) {
        throw new PayloadError(
          `Unknown platform ${JSON.stringify(platform)}; use one of ${names.join(", ")}.`,
          [{ path: ["platform"], code: "invalid_value", message: `use one of ${names.join(", ")}` }],
        );
      }
      let adapter = adapters.get(platform);
      if (adapter === undefined) {
        adapter = build(platform, entry);
        adapters.set(platform, adapter);
        adapter.catch(() => adapters.delete(platform));
      }
      return adapter;
    },
    async close() {
      const built = await Promise.allSettled(adapters.values());
      adapters.clear();
      await Promise.allSettled(
        built.map((result) =>
          result.status === "fulfilled" && !options.emulator ? result.value.close?.() : undefined,
        ),
      );
      await Promise.allSettled([...emulated.values()].map((channel) => channel.close()));
      emulated.clear();
    },
  };
}
