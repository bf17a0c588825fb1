/**
 * The consumer projects of the pack test, generated from the packed packages' manifests so
 * that every package and adapter (found by glob) is covered as soon as it exists.
 */

import { pascalName } from "../support/workspace.js";

/** What the pack test knows about one packed package. */
export interface Packed {
  /** Package name (`@outbox/telegram`). */
  name: string;
  /** Folder name, when it is an adapter (a package with a `./testing` export: `telegram`, `web`). */
  adapter?: string;
  /** The tarball's absolute path. */
  tarball: string;
  /** The published manifest. */
  manifest: {
    version: string;
    bin?: Record<string, string>;
    exports: Record<string, unknown>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    devDependencies?: Record<string, string>;
  };
}

/** Every import specifier a package publishes (`@outbox/telegram`, `@outbox/telegram/testing`, …). */
export function specifiers(pkg: Packed): string[] {
  return Object.keys(pkg.manifest.exports).map((key) =>
    key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`,
  );
}

/** The platform libraries of an adapter (its required, non-Outbox peers), pinned as the workspace tests them. */
export function platformLibraries(pkg: Packed): string[] {
  const { peerDependencies = {}, peerDependenciesMeta = {}, devDependencies = {} } = pkg.manifest;
  return Object.keys(peerDependencies)
    .filter((name) => !name.startsWith("@outbox/") && !peerDependenciesMeta[name]?.optional)
    .map((name) => `${name}@${devDependencies[name] ?? peerDependencies[name]}`);
}

/**
 * Libraries a package's optional exports need (its optional, non-Outbox peers, pinned as the
 * workspace tests them): `@outbox/web/conformance` drives a browser with `playwright-core`.
 * The full consumer installs them, as a user of those exports does.
 */
export function optionalLibraries(pkg: Packed): string[] {
  const { peerDependencies = {}, peerDependenciesMeta = {}, devDependencies = {} } = pkg.manifest;
  return Object.keys(peerDependencies)
    .filter((name) => !name.startsWith("@outbox/") && peerDependenciesMeta[name]?.optional)
    .map((name) => `${name}@${devDependencies[name] ?? peerDependencies[name]}`);
}

/**
 * Plain-node script for the adapters-only consumer: one reply to each adapter's emulator
 * from `…/testing`, and proof that neither the conformance package nor vitest is installed.
 */
export function deliveryScript(adapters: Packed[]): string {
  const lines = [
    `const absent = async (name) => { try { await import(name); } catch (error) { if (error.code === "ERR_MODULE_NOT_FOUND") return; throw error; } throw new Error(name + " is installed but must not be"); };`,
    `await absent("@outbox/conformance");`,
    `await absent("vitest");`,
    `const results = {};`,
  ];
  for (const pkg of adapters) {
    lines.push(
      `{`,
      `  const { createEmulatedChannel } = await import("${pkg.name}/testing");`,
      `  const channel = await createEmulatedChannel();`,
      `  try {`,
      `    const receipt = await channel.adapter.send({ text: "Hello from the **packed** ${pkg.adapter} adapter" }, channel.target);`,
      `    results[${JSON.stringify(pkg.adapter)}] = { ok: receipt.ok, failures: receipt.failures.map((f) => f.error.message), observed: channel.observe() };`,
      `  } finally {`,
      `    await channel.close();`,
      `  }`,
      `}`,
    );
  }
  lines.push(`console.log(JSON.stringify(results));`);
  return `${lines.join("\n")}\n`;
}

/** Plain-node script for the full consumer: every export of every package loads, and the conformance fixture server serves over TLS. */
export function importScript(packages: Packed[]): string {
  const all = packages.flatMap(specifiers);
  // A bundler renames a class whose name two modules share; an error's name comes from its
  // class, so every exported function must keep the name it is exported under.
  return `const loaded = {};
const renamed = [];
for (const name of ${JSON.stringify(all)}) {
  const module = await import(name);
  loaded[name] = Object.keys(module).length;
  for (const [key, value] of Object.entries(module)) {
    if (typeof value === "function" && key !== "default" && value.name !== key) renamed.push(\`\${name}: \${key} is \${value.name}\`);
  }
}
const { loadMedia } = await import("@outbox/core");
const { conformanceMedia } = await import("@outbox/conformance");
const media = await conformanceMedia();
const png = await loadMedia(media.url("png"), media.policy);
console.log(JSON.stringify({ loaded, renamed, png: png.mimeType }));
process.exit(0);
`;
}

/**
 * TypeScript consumer: imports every export, drives each adapter's emulated channel with the
 * public types, and hands each adapter's harness to the conformance package's harness type.
 */
export function typedConsumer(packages: Packed[]): string {
  const imports = packages
    .flatMap(specifiers)
    .map((name, i) => `import * as m${i} from "${name}";\nvoid m${i};`);
  const adapters = packages.filter((pkg) => pkg.adapter);
  const uses = adapters.map(
    (pkg, i) => `import { createEmulatedChannel as channel${i} } from "${pkg.name}/testing";
export async function send${i}(): Promise<DeliveryReceipt> {
  const channel: EmulatedChannel = await channel${i}({ ca: "", media: { localRoots: [] } });
  const payload: ReplyPayloadInput = { text: "typed" };
  try {
    return await channel.adapter.send(payload, channel.target);
  } finally {
    await channel.close();
  }
}`,
  );
  const harnesses = adapters.flatMap((pkg, i) => {
    if (!("./conformance" in pkg.manifest.exports)) return [];
    const factory = `create${pascalName(pkg.adapter ?? "")}Harness`;
    return `import { ${factory} as harness${i} } from "${pkg.name}/conformance";
export const suite${i}: ConformanceHarness = harness${i}();`;
  });
  return [
    `import type { DeliveryReceipt, EmulatedChannel, ReplyPayloadInput } from "@outbox/core";`,
    `import type { ConformanceHarness } from "@outbox/conformance";`,
    ...imports,
    ...uses,
    ...harnesses,
    "",
  ].join("\n");
}

/**
 * Type packages a platform library's own declarations need under `skipLibCheck: false`, which
 * any strict consumer of that library installs whether or not Outbox is there: grammY's
 * declarations import `node-fetch` (v2, untyped) and name the DOM's `Body`/`BodyInit`
 * (hence `DOM` in the consumer's `lib`).
 */
export const libraryTypeGaps: Record<string, string[]> = {
  grammy: ["@types/node-fetch@2.6.13"],
};

/** tsconfig of the TypeScript consumer: what a strict Node ESM project uses, library declarations checked. */
export const consumerTsconfig = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    types: ["node"],
  },
  include: ["consumer.ts"],
};

/**
 * Plain-node script for the queue: one reply queued and delivered through the packed
 * `@outbox/queue` to the packed Telegram adapter's emulator, in process and (given a Redis
 * URL as argument) on Redis; prints each mode's status and what the chat shows.
 */
export function queueScript(): string {
  return `const { createOutbox } = await import("@outbox/queue");
const { createTelegramAdapter } = await import("@outbox/telegram");
const { startTelegramEmulator } = await import("@outbox/telegram/testing");
const emulator = await startTelegramEmulator();
const results = {};
const modes = [["in-process", undefined], ...(process.argv[2] ? [["redis", process.argv[2]]] : [])];
for (const [mode, connection] of modes) {
  const outbox = await createOutbox({
    adapters: { telegram: (services) => createTelegramAdapter({ token: emulator.token, apiRoot: emulator.apiRoot, ...services }) },
    ...(connection ? { connection, prefix: "pack" } : {}),
  });
  const worker = await outbox.createWorker();
  const { id } = await outbox.enqueue("telegram", { text: "queued " + mode }, { to: "42" });
  results[mode] = (await outbox.receipt(id)).status;
  await worker.close();
  await outbox.close();
}
results.observed = emulator.observe(42).map((message) => message.text);
await emulator.close();
console.log(JSON.stringify(results));
process.exit(0);
`;
}

/**
 * Packages that load on first use only: an import, or a plain text reply, loads none of
 * them (the Markdown parser, payload validation, media fetching and sniffing, voice
 * decoding, PDF reading).
 */
export const HEAVY = ["zod", "undici", "markdown-it", "file-type", "opus-decoder", "codec-parser", "unpdf"];

/**
 * A program (ES module, for `node --input-type=module -e`) that runs `body` and prints
 * `{ heavy }`: the {@link HEAVY} packages it loaded. ES modules are seen by a load hook,
 * which appends each URL to a file before the module runs (so the list is complete when
 * `body` is done); CommonJS modules through the require cache. `body` may read `env`
 * (`process.env`) and call `mark()` (a no-op here).
 */
export function heavyProbe(body: string): string {
  return `import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire, register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
const dir = mkdtempSync(join(tmpdir(), "outbox-probe-"));
const log = join(dir, "loaded");
appendFileSync(log, "");
register("data:text/javascript," + encodeURIComponent(
  "import { appendFileSync } from 'node:fs'; let log;" +
  "export function initialize(data) { log = data.log; }" +
  "export async function load(url, context, next) { appendFileSync(log, url + '\\\\n'); return next(url, context); }"),
  { data: { log } });
const env = process.env;
const mark = () => {};
${body}
const loaded = [...readFileSync(log, "utf8").split("\\n"), ...Object.keys(createRequire(join(process.cwd(), "probe.js")).cache)];
rmSync(dir, { recursive: true, force: true });
const heavy = ${JSON.stringify(HEAVY)}.filter((name) => loaded.some((path) => path.includes("/node_modules/" + name + "/")));
console.log(JSON.stringify({ heavy }));`;
}
