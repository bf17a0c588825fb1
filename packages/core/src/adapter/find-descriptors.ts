/**
 * Finding adapter descriptors: every `@outbox/*` package installed beside a tool (one whose
 * package.json exports `./descriptor`), and any package or path an integrator names. Only
 * the descriptor modules are imported, never an adapter or its platform library.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AdapterDescriptor } from "./descriptor.js";

/** An adapter named by an integrator could not be loaded, or what it exports is not a descriptor. */
export class AdapterDescriptorError extends Error {
  /** The package name or path as given. */
  readonly specifier: string;

  constructor(specifier: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AdapterDescriptorError";
    this.specifier = specifier;
  }
}

/** Options of {@link findAdapterDescriptors}. */
export interface FindAdapterDescriptorsOptions {
  /**
   * Directories to look from, nearest first: the `node_modules/@outbox` folder of each and
   * of its ancestors is searched (a tool passes its own folder and the working directory).
   */
  from: readonly string[];
  /** Packages or paths the integrator names (`--adapter`); one of them wins over an installed adapter of the same name. */
  adapters?: readonly string[];
  /** Where the named packages and relative paths are resolved from. Default `process.cwd()`. */
  cwd?: string;
}

/**
 * A source checkout runs TypeScript sources (this module ends in `.ts`): an adapter's
 * `source` export condition is then the one to load, as the rest of the process does.
 */
const conditions = import.meta.url.endsWith(".ts")
  ? ["source", "import", "node", "default"]
  : ["import", "node", "default"];

/**
 * The descriptors of the installed adapters and the named ones, one per platform name (a
 * named adapter first, then the installed ones nearest first), sorted by name.
 * @throws AdapterDescriptorError when a named adapter cannot be loaded.
 */
export async function findAdapterDescriptors(
  options: FindAdapterDescriptorsOptions,
): Promise<AdapterDescriptor[]> {
  const cwd = options.cwd ?? process.cwd();
  const named = await Promise.all((options.adapters ?? []).map((spec) => loadAdapterDescriptor(spec, cwd)));
  const installed = await Promise.all(
    installedAdapterDirs(options.from).map((dir) => descriptorOfPackage(dir, dir)),
  );
  const byName = new Map<string, AdapterDescriptor>();
  for (const descriptor of [...named, ...installed])
    if (!byName.has(descriptor.name)) byName.set(descriptor.name, descriptor);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The descriptor of one adapter: a package name (installed where `cwd` resolves it), a
 * package directory, or a module file exporting `descriptor`.
 * @throws AdapterDescriptorError when it cannot be found or exports no descriptor.
 */
export async function loadAdapterDescriptor(
  specifier: string,
  cwd = process.cwd(),
): Promise<AdapterDescriptor> {
  const isPath =
    /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/])/.test(specifier) || existsSync(resolve(cwd, specifier));
  if (isPath) {
    const path = resolve(cwd, specifier);
    if (!existsSync(path))
      throw new AdapterDescriptorError(
        specifier,
        `adapter ${specifier}: no such file or directory (${path})`,
      );
    return statSync(path).isDirectory()
      ? descriptorOfPackage(path, specifier)
      : descriptorOfModule(path, specifier);
  }
  const dir = ancestors(cwd)
    .map((folder) => join(folder, "node_modules", specifier))
    .find((candidate) => existsSync(join(candidate, "package.json")));
  if (dir === undefined)
    throw new AdapterDescriptorError(
      specifier,
      `adapter package ${specifier} is not installed where ${cwd} looks (npm install ${specifier}, or name its path)`,
    );
  return descriptorOfPackage(dir, specifier);
}

/** The folders of installed `@outbox/*` packages exporting `./descriptor`, one per package name, nearest first. */
function installedAdapterDirs(from: readonly string[]): string[] {
  const dirs = new Map<string, string>();
  for (const folder of from.flatMap(ancestors)) {
    const scope = join(folder, "node_modules", "@outbox");
    if (!existsSync(scope)) continue;
    for (const entry of readdirSync(scope).sort()) {
      const dir = join(scope, entry);
      const manifest = readManifest(dir);
      if (manifest?.name === undefined || dirs.has(manifest.name)) continue;
      if (exportTarget(manifest.exports, "./descriptor") !== undefined) dirs.set(manifest.name, dir);
    }
  }
  return [...dirs.values()];
}

/** A package's descriptor: its `./descriptor` export, else its main entry's `descriptor` export. */
async function descriptorOfPackage(dir: string, specifier: string): Promise<AdapterDescriptor> {
  const manifest = readManifest(dir);
  if (manifest === undefined)
    throw new AdapterDescriptorError(specifier, `adapter ${specifier}: no package.json in ${dir}`);
  const entry =
    exportTarget(manifest.exports, "./descriptor") ??
    exportTarget(manifest.exports, ".") ??
    manifest.main ??
    "index.js";
  return descriptorOfModule(join(dir, entry), specifier);
}

/** The `descriptor` (or default) export of a module file, checked. */
async function descriptorOfModule(file: string, specifier: string): Promise<AdapterDescriptor> {
  let mod: { descriptor?: unknown; default?: unknown };
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (error) {
    throw new AdapterDescriptorError(
      specifier,
      `adapter ${specifier}: ${file} failed to load: ${String(error)}`,
      {
        cause: error,
      },
    );
  }
  const descriptor = mod.descriptor ?? mod.default;
  const problem = descriptorProblem(descriptor);
  if (problem !== undefined)
    throw new AdapterDescriptorError(
      specifier,
      `adapter ${specifier}: ${file} exports no adapter descriptor (${problem}); export \`descriptor\`, an AdapterDescriptor from @outbox/core`,
    );
  return descriptor as AdapterDescriptor;
}

/** What makes `value` not a descriptor, or `undefined` when it is one. */
export function descriptorProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "no `descriptor` object";
  const d = value as Record<string, unknown>;
  if (typeof d.name !== "string" || !/^[a-z][a-z0-9-]{0,31}$/.test(d.name))
    return "`name` must be a lowercase word (a-z, 0-9, -)";
  if (typeof d.title !== "string") return "`title` must be a string";
  if (!Array.isArray(d.packages) || !d.packages.every((p) => typeof p === "string"))
    return "`packages` must list package names";
  if (
    !Array.isArray(d.env) ||
    !d.env.every(
      (v: Record<string, unknown>) =>
        typeof v?.name === "string" &&
        /^[A-Z][A-Z0-9_]*$/.test(v.name) &&
        typeof v.field === "string" &&
        typeof v.help === "string",
    )
  )
    return "`env` must list { name: OUTBOX_…, field, help }";
  const target = d.target as Record<string, unknown> | undefined;
  if (typeof target?.description !== "string" || typeof target.example !== "string")
    return "`target` needs a description and an example";
  if (typeof d.capabilities !== "object" || d.capabilities === null) return "`capabilities` missing";
  if (typeof d.createAdapter !== "function" || typeof d.createEmulatedChannel !== "function")
    return "`createAdapter` and `createEmulatedChannel` must be functions";
  return undefined;
}

/** `dir` and every folder above it. */
function ancestors(dir: string): string[] {
  const folders = [resolve(dir)];
  for (let parent = dirname(folders[0] as string); parent !== folders.at(-1); parent = dirname(parent))
    folders.push(parent);
  return folders;
}

/** The parts of a package.json read here. */
interface Manifest {
  name?: string;
  main?: string;
  exports?: unknown;
}

function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}

/** The file an `exports` map gives `subpath` under {@link conditions}, as Node picks it. */
function exportTarget(exports: unknown, subpath: string): string | undefined {
  if (typeof exports === "string" || Array.isArray(exports))
    return subpath === "." ? pick(exports) : undefined;
  if (typeof exports !== "object" || exports === null) return undefined;
  const subpaths = Object.keys(exports).some((key) => key.startsWith("."));
  if (!subpaths) return subpath === "." ? pick(exports) : undefined;
  return pick((exports as Record<string, unknown>)[subpath]);
}

function pick(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) return target.map(pick).find((file) => file !== undefined);
  if (typeof target !== "object" || target === null) return undefined;
  for (const [condition, value] of Object.entries(target))
    if (conditions.includes(condition)) {
      const file = pick(value);
      if (file !== undefined) return file;
    }
  return undefined;
}

/** The adapters an environment names: `OUTBOX_ADAPTERS`, package names or paths separated by commas. */
export function adapterSpecifiers(env: Readonly<Record<string, string | undefined>>): string[] {
  return (env.OUTBOX_ADAPTERS ?? "")
    .split(",")
    .map((spec) => spec.trim())
    .filter((spec) => spec !== "");
}
