/**
 * The adapters `outbox-mcp` delivers through, built on first use per platform and closed
 * together: real ones from the environment each adapter descriptor declares
 * (`OUTBOX_<PLATFORM>_TOKEN` and its other settings), or emulated channels with `--emulator`.
 */
import {
  type AdapterDescriptor,
  type ChannelAdapter,
  type EmulatedChannel,
  type MediaPolicy,
  PayloadError,
  readAdapterEnv,
} from "@outbox/core";

/** Options of {@link createChannelPool}. */
export interface ChannelPoolOptions {
  /** Deliver to emulators on 127.0.0.1 instead of the real platforms. */
  emulator?: boolean;
  /** Environment to read each platform's settings from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Media policy of every adapter (its roots must include where tool media is written). */
  media: MediaPolicy;
  /** Platforms offered, by their adapter descriptors. */
  descriptors: readonly AdapterDescriptor[];
}

/** Adapters by platform. */
export interface ChannelPool {
  /** Platform names offered. */
  readonly names: string[];
  /** The adapter of a platform, built on first use. @throws PayloadError for an unknown, unconfigured or uninstalled platform. */
  get(platform: string): Promise<ChannelAdapter>;
  /** The emulated channels built so far (with `emulator`), by platform. */
  readonly emulated: ReadonlyMap<string, EmulatedChannel>;
  /** Close every adapter and emulator. */
  close(): Promise<void>;
}

/** Builds the pool. */
export function createChannelPool(options: ChannelPoolOptions): ChannelPool {
  const env = options.env ?? process.env;
  const adapters = new Map<string, Promise<ChannelAdapter>>();
  const emulated = new Map<string, EmulatedChannel>();
  const names = options.descriptors.map((descriptor) => descriptor.name);

  /** A missing adapter package or platform library becomes an error naming what to install. */
  function missing(descriptor: AdapterDescriptor) {
    const packages = descriptor.packages.join(" ");
    return (error: unknown): never => {
      if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw error;
      throw new PayloadError(
        `Platform ${descriptor.name} needs ${packages}: install them next to @outbox/mcp (npm install ${packages}).`,
        [{ path: ["platform"], code: "not_installed", message: `install ${packages}` }],
        { cause: error },
      );
    };
  }

  function build(descriptor: AdapterDescriptor): Promise<ChannelAdapter> {
    if (options.emulator) {
      return descriptor.createEmulatedChannel({ media: options.media }).then((channel) => {
        emulated.set(descriptor.name, channel);
        return channel.adapter;
      }, missing(descriptor));
    }
    const reading = readAdapterEnv(descriptor, env);
    if (!reading.ok) {
      const unset = reading.missing.map((variable) => variable.name).join(" and ");
      throw new PayloadError(
        `Platform ${descriptor.name} is not configured: set ${unset} in the server's environment (or start outbox-mcp with --emulator).`,
        [{ path: ["platform"], code: "not_configured", message: `${unset} not set.` }],
      );
    }
    return descriptor.createAdapter(reading.config, options.media).catch(missing(descriptor));
  }

  return {
    names,
    emulated,
    async get(platform) {
      const descriptor = options.descriptors.find((candidate) => candidate.name === platform);
      if (descriptor === undefined) {
        throw new PayloadError(
          `Unknown platform ${JSON.stringify(platform)}; use one of ${names.join(", ")}.`,
          [{ path: ["platform"], code: "invalid_value", message: `use one of ${names.join(", ")}` }],
        );
      }
      let adapter = adapters.get(platform);
      if (adapter === undefined) {
        adapter = build(descriptor);
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
