/**
 * The platforms `outbox-mcp` offers: the descriptors of the `@outbox/*` adapters installed
 * beside it or in the working directory's project, and of the packages or paths named with
 * `--adapter` or `OUTBOX_ADAPTERS`. Only descriptor modules load here; an adapter and its
 * platform library load when the platform is first used.
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { type AdapterDescriptor, adapterSpecifiers, findAdapterDescriptors } from "@outbox/core";

/** Options of {@link findMcpAdapters}. */
export interface FindMcpAdaptersOptions {
  /** Adapter packages or paths to add to the installed ones (`--adapter`). */
  adapters?: readonly string[];
  /** Environment whose `OUTBOX_ADAPTERS` (comma-separated) names more. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The descriptors of every adapter `outbox-mcp` can use, by name. @throws AdapterDescriptorError for a named adapter that does not load. */
export function findMcpAdapters(options: FindMcpAdaptersOptions = {}): Promise<AdapterDescriptor[]> {
  return findAdapterDescriptors({
    from: [dirname(fileURLToPath(import.meta.url)), process.cwd()],
    adapters: [...(options.adapters ?? []), ...adapterSpecifiers(options.env ?? process.env)],
  });
}
