/**
 * The platforms the CLI knows, read from adapter descriptors: every `@outbox/*` adapter
 * installed beside the CLI or in the working directory's project, and each package or path
 * named with `--adapter` (or `OUTBOX_ADAPTERS`). Only the descriptor modules load at start;
 * an adapter and its platform library load on use, and a missing one becomes a
 * {@link NotInstalledError} naming the npm command that adds it.
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { type AdapterDescriptor, adapterSpecifiers, findAdapterDescriptors } from "@outbox/core";
import { UsageError } from "./output/usage-error.js";

/** A package the CLI loads on use is not installed; `install` is the npm command adding it. */
export class NotInstalledError extends UsageError {
  /** `npm install …` for what is missing. */
  readonly install: string;

  constructor(what: string, packages: string, options?: { cause?: unknown }) {
    super(`${what} is not installed`, `npm install ${packages}`);
    this.install = `npm install ${packages}`;
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * `load()`, with a missing package (ERR_MODULE_NOT_FOUND) turned into a
 * {@link NotInstalledError} naming `packages` (`what`: what needs them, for the message).
 */
export async function loadOptional<T>(what: string, packages: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND")
      throw new NotInstalledError(what, packages, { cause: error });
    throw error;
  }
}

/** One platform the CLI can demo and send to: its descriptor, loading its adapter on use. */
export type Platform = AdapterDescriptor;

/** The platforms, by name, in name order. */
export interface Platforms {
  /** Every platform found. */
  readonly list: readonly Platform[];
  /** The platform called `name` (any case). @throws UsageError naming the known ones and how to add one. */
  get(name: string): Platform;
}

/**
 * The platforms of the installed adapters and of `adapters` (package names or paths, from
 * `--adapter`), plus those in `env.OUTBOX_ADAPTERS`; a missing platform library surfaces as
 * a {@link NotInstalledError} when the adapter is used.
 */
export async function loadPlatforms(
  adapters: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Platforms> {
  const descriptors = await findAdapterDescriptors({
    from: [dirname(fileURLToPath(import.meta.url)), process.cwd()],
    adapters: [...adapters, ...adapterSpecifiers(env)],
  });
  const list = descriptors.map((descriptor): Platform => {
    const what = `the ${descriptor.name} adapter`;
    const packages = descriptor.packages.join(" ");
    return {
      ...descriptor,
      createAdapter: (config, media) =>
        loadOptional(what, packages, () => descriptor.createAdapter(config, media)),
      createEmulatedChannel: (options) =>
        loadOptional(what, packages, () => descriptor.createEmulatedChannel(options)),
    };
  });
  return {
    list,
    get(name) {
      const platform = list.find((candidate) => candidate.name === name.toLowerCase());
      if (platform) return platform;
      const known =
        list.length > 0 ? `installed: ${list.map((p) => p.name).join(", ")}` : "none is installed";
      throw new UsageError(
        `no ${name} adapter is installed (${known})`,
        `npm install @outbox/${name.toLowerCase()}, or name an adapter package or path with --adapter`,
      );
    },
  };
}

/** The `--adapter` values in a command line, read before the commands are built (their help lists the platforms). */
export function adapterArguments(argv: readonly string[]): string[] {
  const values: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === "--adapter" && argv[i + 1] !== undefined) values.push(argv[i + 1] as string);
    else if (arg.startsWith("--adapter=")) values.push(arg.slice("--adapter=".length));
  });
  return values;
}
