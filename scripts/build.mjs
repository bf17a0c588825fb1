// Builds every workspace package (packages/* and adapters/*, found by glob) with tsc:
// ESM JavaScript, declarations and declaration maps from `src/` into `dist/`, in dependency
// order. Workspace imports resolve to the already-built `dist/` of their package (the
// `source` condition is off here), so each package's declarations are checked exactly as a
// consumer will read them. Usage: node scripts/build.mjs [package-dir ...]
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
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

/** Compile one package; returns the diagnostics as printable lines. */
function build({ dir }) {
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
    sourceMap: true,
    customConditions: [],
    allowImportingTsExtensions: false,
  };
  const program = ts.createProgram(files, buildOptions, cachingHost(buildOptions));
  const result = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  return diagnostics.map((d) => {
    const where = d.file
      ? `${relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : "tsc";
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

const only = process.argv.slice(2).map((dir) => join(process.cwd(), dir));
let failed = false;
for (const p of inDependencyOrder(workspacePackages())) {
  if (only.length > 0 && !only.some((dir) => relative(dir, p.dir) === "")) continue;
  const started = performance.now();
  const problems = build(p);
  const ms = Math.round(performance.now() - started);
  console.log(`${problems.length ? "✗" : "✓"} ${p.pkg.name} (${relative(root, p.dir)}) ${ms} ms`);
  for (const line of problems) console.log(`  ${line}`);
  failed ||= problems.length > 0;
}
process.exit(failed ? 1 : 0);
