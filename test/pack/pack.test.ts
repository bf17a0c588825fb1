/**
 * The packages as an integrator gets them: build, `pnpm -r pack` exactly as published, install
 * the tarballs with npm into fresh projects outside the workspace, and use them there.
 * - adapters-only consumer (no @outbox/conformance, no vitest): plain `node` delivers one reply
 *   to each adapter's emulator from `…/testing`, with only the platform library beside it;
 * - full consumer: every export of every package loads in plain `node`, and a TypeScript
 *   consumer type-checks with `module: NodeNext` and `skipLibCheck: false`;
 * - the CLI alone (with core), and with one adapter: it runs and names what to install;
 * - a third-party adapter package (built here, outside the workspace) installed beside the
 *   CLI and the MCP server: `outbox demo`, `outbox send` and `outbox-mcp` use it.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisMissing, startRedis } from "../../packages/queue/test/support/redis-server.js";
import { packageDirs, repoRoot } from "../support/workspace.js";
import {
  consumerTsconfig,
  deliveryScript,
  heavyProbe,
  importScript,
  libraryTypeGaps,
  optionalLibraries,
  type Packed,
  platformLibraries,
  queueScript,
  typedConsumer,
} from "./consumer.js";
import { ECHO, mcpScript, writeEchoAdapter } from "./third-party-adapter.js";

const run = promisify(execFile);
const pnpm = ["-y", "pnpm@10.34.8"];
const rootManifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const tsc = createRequire(join(repoRoot, "package.json")).resolve("typescript/bin/tsc");
const work = mkdtempSync(join(tmpdir(), "outbox-pack-"));
const packed: Packed[] = [];
const listings = new Map<string, string[]>();

/** Run a command and return its standard output (`both`: and its error output); on failure the error carries both. */
async function sh(
  file: string,
  args: string[],
  cwd: string,
  both = false,
  env: Record<string, string> = {},
): Promise<string> {
  try {
    const { stdout, stderr } = await run(file, args, {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 480_000, // a hung child never outlives the test (the AWS SDK's declarations alone take tsc a minute under load)
      env: { ...process.env, CI: "true", ...env },
    });
    return both ? `${stdout}\n${stderr}` : stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}\n${stderr ?? ""}`);
  }
}

/** Run the installed `outbox` in `dir` (the last argument may be extra environment); never throws. */
async function outbox(dir: string, ...args: Array<string | Record<string, string>>) {
  const env = typeof args.at(-1) === "object" ? (args.pop() as Record<string, string>) : {};
  try {
    const { stdout, stderr } = await run(join(dir, "node_modules", ".bin", "outbox"), args as string[], {
      cwd: dir,
      env: { ...process.env, ...env },
    });
    return { code: 0, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    return { code, output: `${stdout ?? ""}\n${stderr ?? ""}` };
  }
}

/** A fresh npm project in the temp dir with these dependencies, installed. */
async function consumer(name: string, dependencies: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: `outbox-${name}`, private: true, type: "module", dependencies }, null, 2),
  );
  await sh(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", "--loglevel=error"],
    dir,
  );
  return dir;
}

/** `name@version` → a dependencies entry. */
const entry = (spec: string): [string, string] => {
  const at = spec.lastIndexOf("@");
  return [spec.slice(0, at), spec.slice(at + 1)];
};
const fileDeps = (list: Packed[]) => list.map((pkg): [string, string] => [pkg.name, `file:${pkg.tarball}`]);

let dryRun: Promise<string>;
let typecheck: Promise<string>;
let adaptersOnly: Promise<string>;
let full: Promise<string>;
let cliAlone: Promise<string>;
let cliTelegram: Promise<string>;

beforeAll(async () => {
  await sh(process.execPath, ["scripts/build.mjs"], repoRoot);
  const tarballs = join(work, "tarballs");
  await sh("npx", [...pnpm, "-r", "pack", "--pack-destination", tarballs], repoRoot);
  for (const dir of packageDirs()) {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    if (pkg.private) continue;
    const tarball = join(tarballs, `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`);
    const manifest = JSON.parse(await sh("tar", ["-xzOf", tarball, "package/package.json"], work));
    // An adapter is a package with an emulated channel under ./testing (adapters/*, and packages/web);
    // core's ./testing is the emulator kit.
    const adapter =
      "./testing" in manifest.exports && pkg.name !== "@outbox/core" ? dir.split("/").at(-1) : undefined;
    packed.push({ name: pkg.name, tarball, manifest, ...(adapter ? { adapter } : {}) });
    listings.set(pkg.name, (await sh("tar", ["-tzf", tarball], work)).trim().split("\n"));
  }
  // Without the conformance package: anything that depends on it stays out.
  const needsConformance = (pkg: Packed) => "@outbox/conformance" in (pkg.manifest.dependencies ?? {});
  const light = packed.filter((pkg) => pkg.name !== "@outbox/conformance" && !needsConformance(pkg));
  const adapters = packed.filter((pkg) => pkg.adapter);
  const libraries = adapters.flatMap(platformLibraries).map(entry);
  const conformance = packed.find((pkg) => pkg.name === "@outbox/conformance");
  // The CLI with nothing beside it but core (published, core comes from the registry), and with one adapter.
  const only = (...names: string[]) => fileDeps(packed.filter((pkg) => names.includes(pkg.name)));
  const telegram = packed.find((pkg) => pkg.name === "@outbox/telegram");
  cliAlone = consumer("cli-alone", Object.fromEntries(only("@outbox/core", "@outbox/cli")));
  cliTelegram = consumer(
    "cli-telegram",
    Object.fromEntries([
      ...only("@outbox/core", "@outbox/cli", "@outbox/telegram"),
      ...(telegram ? platformLibraries(telegram).map(entry) : []),
    ]),
  );
  // What `pnpm release` runs after the build, without uploading (no login needed).
  dryRun = sh("npx", [...pnpm, "publish", "-r", "--dry-run", "--no-git-checks"], repoRoot, true);
  // A third party's adapter, packed as its author would publish it; the full project installs it
  // beside the CLI and the MCP server (no project of its own: one install less).
  const echo = join(work, "echo-adapter");
  mkdirSync(echo);
  writeEchoAdapter(echo);
  const echoTarball = join(
    work,
    (await sh("npm", ["pack", "--pack-destination", work, "--loglevel=error"], echo)).trim(),
  );
  adaptersOnly = consumer("adapters-only", Object.fromEntries([...fileDeps(light), ...libraries]));
  full = consumer(
    "full",
    Object.fromEntries([
      ...fileDeps(packed),
      [ECHO.packageName, `file:${echoTarball}`],
      ...libraries,
      ...libraries.flatMap(([name]) => libraryTypeGaps[name] ?? []).map(entry),
      ...packed.flatMap(optionalLibraries).map(entry),
      ["vitest", conformance?.manifest.devDependencies?.vitest ?? "4"],
      ["@types/node", rootManifest.devDependencies["@types/node"]],
    ]),
  );
  // The type-check starts as soon as its project is installed, beside the other checks.
  typecheck = full.then((dir) => {
    writeFileSync(join(dir, "consumer.ts"), typedConsumer(packed));
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(consumerTsconfig, null, 2));
    return sh(process.execPath, [tsc, "-p", "tsconfig.json"], dir);
  });
  typecheck.catch(() => {}); // reported by its test
  await Promise.all([dryRun, adaptersOnly, full, cliAlone, cliTelegram]);
}, 600_000);

// Removing the consumers' node_modules takes a while on a loaded machine.
afterAll(() => rmSync(work, { recursive: true, force: true }), 180_000);

describe("packed packages", () => {
  it("every tarball holds its manifest, README and built code only: no tests, no keys, no workspace: ranges", () => {
    const sizes: string[] = [];
    for (const pkg of packed) {
      const files = listings.get(pkg.name) ?? [];
      sizes.push(
        `${pkg.name.padEnd(24)} ${(readFileSync(pkg.tarball).length / 1024).toFixed(1).padStart(7)} KB  ${files.length} files`,
      );
      expect(files, pkg.name).toContain("package/README.md");
      expect(files, pkg.name).toContain("package/dist/index.js");
      expect(files, pkg.name).toContain("package/dist/index.d.ts");
      for (const file of files) {
        expect(file, pkg.name).toMatch(
          /^package\/(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/.+|src\/.+|fixtures\/[^/]+|bin\/[^/]+)$/,
        );
        expect(file, pkg.name).not.toMatch(/\.(pem|key|crt|p12|pfx)$|(^|\/)tests?\/|\.test\.|\.tsbuildinfo$/);
      }
      for (const target of Object.values(pkg.manifest.exports).flatMap((conditions) =>
        Object.entries(conditions as Record<string, string>).filter(([condition]) => condition !== "source"),
      )) {
        expect(files, `${pkg.name} exports ${target[1]}`).toContain(`package/${target[1].slice(2)}`);
      }
      expect(JSON.stringify(pkg.manifest), pkg.name).not.toContain("workspace:");
    }
    console.log(`tarball sizes:\n${sizes.join("\n")}`);
    expect(packed.map((pkg) => pkg.name)).toEqual(
      expect.arrayContaining(["@outbox/core", "@outbox/conformance"]),
    );
  });

  it("plain node, adapters only: one reply reaches each adapter's emulator from …/testing, without conformance or vitest installed", async () => {
    const dir = await adaptersOnly;
    const adapters = packed.filter((pkg) => pkg.adapter);
    writeFileSync(join(dir, "deliver.mjs"), deliveryScript(adapters));
    const results = JSON.parse(await sh(process.execPath, ["deliver.mjs"], dir)) as Record<
      string,
      { ok: boolean; failures: string[]; observed: Array<{ text?: string }> }
    >;
    expect(Object.keys(results).sort()).toEqual(adapters.map((pkg) => pkg.adapter).sort());
    for (const [platform, result] of Object.entries(results)) {
      expect(result, platform).toMatchObject({ ok: true, failures: [] });
      expect(result.observed.map((message) => message.text).join("\n"), platform).toContain(
        `Hello from the packed ${platform} adapter`,
      );
    }
  }, 60_000);

  it("plain node, adapters only: importing core or an adapter loads none of the dependencies that wait for first use", async () => {
    const dir = await adaptersOnly;
    const entries = packed.filter((pkg) => pkg.name === "@outbox/core" || pkg.adapter);
    const loaded: Record<string, string[]> = {};
    for (const pkg of entries) {
      const probe = heavyProbe(`await import(${JSON.stringify(pkg.name)});`);
      const { heavy } = JSON.parse(await sh(process.execPath, ["--input-type=module", "-e", probe], dir)) as {
        heavy: string[];
      };
      // An adapter built on undici (Discord, WhatsApp, Matrix) loads its HTTP client with it.
      loaded[pkg.name] = heavy.filter((name) => !(name === "undici" && pkg.manifest.dependencies?.undici));
    }
    expect(loaded).toEqual(Object.fromEntries(entries.map((pkg) => [pkg.name, []])));
  }, 60_000);

  it("plain node, everything installed: every export of every package loads under its own name; the conformance fixture host serves over TLS", async () => {
    const dir = await full;
    writeFileSync(join(dir, "imports.mjs"), importScript(packed));
    const { loaded, renamed, png } = JSON.parse(await sh(process.execPath, ["imports.mjs"], dir));
    for (const [name, count] of Object.entries(loaded)) expect(count, name).toBeGreaterThan(0);
    expect(renamed).toEqual([]);
    expect(png).toBe("image/png");
  }, 60_000);

  it("plain node: @outbox/queue delivers a queued reply to the packed Telegram adapter's emulator, in process and on a real redis-server", async () => {
    const dir = await adaptersOnly;
    writeFileSync(join(dir, "queue.mjs"), queueScript());
    const redis = redisMissing === undefined ? await startRedis() : undefined;
    try {
      const results = JSON.parse(
        await sh(process.execPath, ["queue.mjs", ...(redis ? [redis.url] : [])], dir),
      );
      expect(results).toMatchObject({ "in-process": "delivered", ...(redis ? { redis: "delivered" } : {}) });
      expect(results.observed).toEqual(["queued in-process", ...(redis ? ["queued redis"] : [])]);
    } finally {
      await redis?.stop();
    }
  }, 90_000);

  it("every command a package installs (`bin`) runs from the installed package: `--help` exits 0", async () => {
    const dir = await full;
    const commands = packed.flatMap((pkg) => Object.keys(pkg.manifest.bin ?? {}));
    for (const command of commands) {
      // Usage may go to stderr (an MCP stdio server keeps stdout for the protocol).
      const help = await sh(join(dir, "node_modules", ".bin", command), ["--help"], dir, true);
      expect(help, command).toContain(command);
    }
  }, 60_000);

  it("the CLI installs alone, loads the adapters installed beside it, and names the npm command for a missing one", async () => {
    const alone = await cliAlone;
    expect(await outbox(alone, "--help")).toMatchObject({
      code: 0,
      output: expect.stringContaining("outbox"),
    });
    expect(await outbox(alone, "send", "telegram", "hi", "--emulator")).toEqual({
      code: 2,
      output: expect.stringContaining(
        "no telegram adapter is installed (none is installed). Fix: npm install @outbox/telegram",
      ),
    });
    expect((await outbox(alone, "demo")).output).toContain("Fix: npm install @outbox/conformance");

    const withTelegram = await cliTelegram;
    const sent = await outbox(withTelegram, "send", "telegram", "Hello from the packed CLI", "--emulator");
    expect(sent.code, sent.output).toBe(0);
    expect((await outbox(withTelegram, "send", "slack", "hi", "--emulator")).output).toContain(
      "no slack adapter is installed (installed: telegram). Fix: npm install @outbox/slack",
    );
  }, 60_000);

  it("a third party's adapter package, installed beside the CLI and the MCP server, works in outbox demo, outbox send and outbox-mcp", async () => {
    const dir = await full;
    const adapter = ["--adapter", ECHO.packageName];
    const [demo, emulated, real, byPath, help] = await Promise.all([
      outbox(dir, ...adapter, "demo", "--platform", ECHO.platform, "--json"),
      outbox(dir, ...adapter, "send", ECHO.platform, "Hello from the packed CLI", "--emulator"),
      outbox(dir, ...adapter, "send", ECHO.platform, "hi", "--to", "reference-chat", "--json"),
      outbox(
        dir,
        "--adapter",
        `./node_modules/${ECHO.packageName}/descriptor.js`,
        "send",
        ECHO.platform,
        "hi",
        "--emulator",
      ),
      outbox(dir, ...adapter, "send", "--help"),
    ]);
    expect(demo.code, demo.output).toBe(0);
    expect(JSON.parse(demo.output).platforms.map((p: { platform: string }) => p.platform)).toEqual([
      ECHO.platform,
    ]);
    expect(emulated).toEqual({ code: 0, output: expect.stringContaining("Hello from the packed CLI") });
    expect(byPath.code, byPath.output).toBe(0);
    expect(help.output).toContain(ECHO.platform);
    // For real: the token comes from the variable the descriptor declares, and is never printed.
    expect(real.output).toContain(
      "OUTBOX_ECHO_TOKEN is not set. Fix: export OUTBOX_ECHO_TOKEN=<token> (any value)",
    );
    const configured = await outbox(dir, ...adapter, "send", ECHO.platform, "hi", "--to", "reference-chat", {
      OUTBOX_ECHO_TOKEN: ECHO.token,
    });
    expect(configured.code, configured.output).toBe(0);
    expect(configured.output).not.toContain(ECHO.token);

    // outbox-mcp, by flag and by OUTBOX_ADAPTERS, over stdio from an MCP client.
    writeFileSync(join(dir, "mcp-flag.mjs"), mcpScript(["--emulator", ...adapter]));
    writeFileSync(join(dir, "mcp-env.mjs"), mcpScript(["--emulator"]));
    const [byFlag, byEnv] = await Promise.all([
      sh(process.execPath, ["mcp-flag.mjs"], dir),
      sh(process.execPath, ["mcp-env.mjs"], dir, false, { OUTBOX_ADAPTERS: ECHO.packageName }),
    ]);
    for (const output of [byFlag, byEnv]) {
      const { instructions, result } = JSON.parse(output);
      expect(instructions).toMatch(new RegExp(`^outbox-mcp delivers to: .*\\b${ECHO.platform}\\b`));
      expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
      expect(result.structuredContent).toMatchObject({ ok: true });
    }
  }, 120_000);

  it("pnpm publish -r --dry-run (the release step) would publish every package", async () => {
    const output = await dryRun;
    for (const pkg of packed) expect(output, pkg.name).toContain(`+ ${pkg.name}@${pkg.manifest.version}`);
  }, 60_000);

  it("TypeScript consumer: every export type-checks with module NodeNext and skipLibCheck false", {
    timeout: 480_000,
  }, async () => {
    await typecheck;
  });
});
