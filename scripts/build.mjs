// Builds every workspace package (packages/* and adapters/*, found by glob) from `src/` into
// `dist/`, in dependency order. tsc checks each package and emits its declarations and
// declaration maps; workspace imports resolve to the already-built `dist/` of their package
// (the `source` condition is off here), so the declarations are checked exactly as a consumer
// will read them. esbuild emits the JavaScript: one bundle of the package's own modules per
// entry point, because a cold start that loads ~130 small files spends most of its import in
// the module loader. Usage: node scripts/build.mjs [package-dir ...]
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import * as esbuild from "esbuild";
import ts from "typescript";

const root = new URL("..", import.meta.url).pathname;

/** Every workspace package with a `src/index.ts`: its folder and package.json. */
function workspacePackages() {
  return ["packages", "adapters"]
    .flatMap((group) =>
      readdirSync(join(root, group), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(root, group, entry.name)),
    )
    .filter((dir) => existsSync(join(dir, "package.json")) && existsSync(join(dir, "src", "index.ts")))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }));
}

/** Packages ordered so that every workspace package comes after the ones it imports. */
function inDependencyOrder(packages) {
  const byName = new Map(packages.map((p) => [p.pkg.name, p]));
  const ordered = [];
  const state = new Map();
  const visit = (p) => {
    if (state.get(p) === "done") return;
    if (state.get(p) === "visiting") throw new Error(`dependency cycle through ${p.pkg.name}`);
    state.set(p, "visiting");
    const { dependencies, devDependencies, peerDependencies } = p.pkg;
    for (const name of Object.keys({ ...dependencies, ...devDependencies, ...peerDependencies })) {
      const dep = byName.get(name);
      if (dep && dep !== p) visit(dep);
    }
    state.set(p, "done");
    ordered.push(p);
  };
  packages.forEach(visit);
  return ordered;
}

const base = ts.readConfigFile(join(root, "tsconfig.base.json"), ts.sys.readFile);
if (base.error) throw new Error(ts.flattenDiagnosticMessageText(base.error.messageText, "\n"));

/** Parsed declaration files of dependencies, shared by every package's program (they never change during a build). */
const libraryFiles = new Map();

/** A compiler host that parses each file under node_modules once for the whole build. */
function cachingHost(options) {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (!fileName.includes("/node_modules/")) return getSourceFile(fileName, languageVersion, ...rest);
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    if (!libraryFiles.has(key)) libraryFiles.set(key, getSourceFile(fileName, languageVersion, ...rest));
    return libraryFiles.get(key);
  };
  return host;
}

/**
 * Modules a package loads by their file path at run time rather than by import (the CLI's
 * generated conformance test imports the harness picker beside the command), so they keep
 * their own file in `dist/`.
 */
const loadedByPath = { "@outbox/cli": ["src/conformance/pick-harness.ts"] };

/**
 * The source file of every entry point of a package: each `exports` path, each `bin` in
 * `dist/`, each `dist/` file a `bin` script outside it imports, and the modules loaded by path.
 */
function entryPoints({ dir, pkg }) {
  const fromDist = (path) => path.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts");
  const entries = Object.values(pkg.exports ?? {}).map((target) => target.source ?? fromDist(target.default));
  for (const bin of Object.values(pkg.bin ?? {})) {
    if (bin.startsWith("./dist/")) entries.push(fromDist(bin));
    else {
      const script = readFileSync(join(dir, bin), "utf8");
      for (const [, path] of script.matchAll(/["']\.\.\/(dist\/[^"']+\.js)["']/g))
        entries.push(fromDist(`./${path}`));
    }
  }
  entries.push(...(loadedByPath[pkg.name] ?? []));
  return [...new Set(entries.map((entry) => join(dir, entry)))];
}

/**
 * Bundles a package's JavaScript: its own modules are joined per entry point, with ESM code
 * splitting so a lazily imported module stays lazy and code shared by entries is emitted once
 * (in `dist/chunks/`, one level deep like the sources' folders, so paths built from
 * `import.meta.url` keep their depth). Every bare import (dependencies, other @outbox
 * packages) stays external. Returns the errors as printable lines.
 */
async function bundle(p) {
  const result = await esbuild.build({
    absWorkingDir: p.dir,
    entryPoints: entryPoints(p),
    outbase: join(p.dir, "src"),
    outdir: join(p.dir, "dist"),
    entryNames: "[dir]/[name]",
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: true,
    sourcesContent: false,
    logLevel: "silent",
  });
  return result.errors.map((e) => `${e.location?.file ?? "esbuild"}:${e.location?.line ?? 0}: ${e.text}`);
}

/** Compile one package; returns the diagnostics as printable lines. */
async function build(p) {
  const { dir } = p;
  const { options } = ts.parseJsonConfigFileContent(base.config, ts.sys, dir);
  const src = join(dir, "src");
  const files = ts.sys.readDirectory(src, [".ts"], ["**/*.test.ts"]);
  rmSync(join(dir, "dist"), { recursive: true, force: true });
  const buildOptions = {
    ...options,
    rootDir: src,
    outDir: join(dir, "dist"),
    noEmit: false,
    declaration: true,
    declarationMap: true,
    emitDeclarationOnly: true,
    customConditions: [],
    allowImportingTsExtensions: false,
  };
  const program = ts.createProgram(files, buildOptions, cachingHost(buildOptions));
  const result = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  const bundled = await bundle(p).catch(
    (error) => error.errors?.map((e) => `esbuild: ${e.text}`) ?? [String(error)],
  );
  return [
    ...bundled,
    ...diagnostics.map((d) => {
      const where = d.file
        ? `${relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : "tsc";
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    }),
  ];
}

const only = process.argv.slice(2).map((dir) => join(process.cwd(), dir));
let failed = false;
for (const p of inDependencyOrder(workspacePackages())) {
  if (only.length > 0 && !only.some((dir) => relative(dir, p.dir) === "")) continue;
  const started = performance.now();
  const problems = await build(p);
  const ms = Math.round(performance.now() - started);
  console.log(`${problems.length ? "✗" : "✓"} ${p.pkg.name} (${relative(root, p.dir)}) ${ms} ms`);
  for (const line of problems) console.log(`  ${line}`);
  failed ||= problems.length > 0;
}
process.exit(failed ? 1 : 0);
