import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runtimeImports } from "./support/imports.js";
import { packageDirs, pascalName, repoRoot as root, workspaceNames } from "./support/workspace.js";

/** Adapters are found by glob: every folder under adapters/. */
const adapters = workspaceNames("adapters");

const pascal = pascalName;

/** The package a bare specifier loads (`@scope/name/sub` → `@scope/name`, `name/sub` → `name`). */
const packageName = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

describe("adapter package shape", () => {
  it("finds the adapters", () => {
    expect(adapters).toContain("telegram");
  });

  for (const name of adapters) {
    const dir = join(root, "adapters", name);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

    it(`${name}: has the required files`, () => {
      for (const file of [
        "src/index.ts",
        "src/types.ts",
        "src/testing/index.ts",
        "src/conformance/index.ts",
        "test/conformance.test.ts",
        "README.md",
      ]) {
        expect(existsSync(join(dir, file)), file).toBe(true);
      }
      expect(existsSync(join(root, "docs", "adapters", `${name}.md`)), `docs/adapters/${name}.md`).toBe(true);
    });

    it(`${name}: exports the factory, its config type, its capabilities and ./testing`, async () => {
      expect(pkg.name).toBe(`@outbox/${name}`);
      expect(pkg.exports["./testing"]).toBeDefined();
      const mod = await import(`@outbox/${name}`);
      expect(typeof mod[`create${pascal(name)}Adapter`]).toBe("function");
      expect(mod[`${name}Capabilities`]).toBeTypeOf("object");
      const types = readFileSync(join(dir, "src", "types.ts"), "utf8");
      expect(types).toMatch(new RegExp(`export (interface|type) ${pascal(name)}AdapterConfig\\b`));
    });

    it(`${name}: ./testing offers createEmulatedChannel and loads no test runner or conformance package at run time`, async () => {
      const testing = await import(`@outbox/${name}/testing`);
      expect(typeof testing.createEmulatedChannel).toBe("function");
      const loaded = [...runtimeImports(join(dir, pkg.exports["./testing"].source))];
      expect(loaded.filter((spec) => /^(vitest|@vitest\/|@outbox\/conformance)/.test(spec))).toEqual([]);
      expect(
        loaded.filter((spec) => spec.startsWith("@outbox/") && !/^@outbox\/core(\/testing)?$/.test(spec)),
      ).toEqual([]);
    });

    it(`${name}: . and ./testing load only node builtins, @outbox/core, their dependencies and required peers`, () => {
      const required = Object.keys(pkg.peerDependencies ?? {}).filter(
        (dep) => !pkg.peerDependenciesMeta?.[dep]?.optional,
      );
      const allowed = new Set([...Object.keys(pkg.dependencies ?? {}), ...required]);
      for (const entry of [".", "./testing"]) {
        const loaded = [...runtimeImports(join(dir, pkg.exports[entry].source))].map(packageName);
        expect(
          loaded.filter((dep) => !dep.startsWith("node:") && !allowed.has(dep)),
          `${name} ${entry}`,
        ).toEqual([]);
      }
    });

    it(`${name}: ./conformance exports create${pascal(name)}Harness; @outbox/conformance is an optional peer`, async () => {
      expect(pkg.exports["./conformance"]).toBeDefined();
      const harness = await import(`@outbox/${name}/conformance`);
      expect(typeof harness[`create${pascal(name)}Harness`]).toBe("function");
      expect(pkg.peerDependencies?.["@outbox/conformance"]).toBeDefined();
      expect(pkg.peerDependenciesMeta?.["@outbox/conformance"]?.optional).toBe(true);
      expect(pkg.dependencies?.["@outbox/conformance"]).toBeUndefined();
    });

    it(`${name}: the platform library (if any) is a peer dependency of this package only, and core a dependency`, () => {
      const platform = Object.keys(pkg.peerDependencies ?? {}).filter((dep) => !dep.startsWith("@outbox/"));
      // An adapter on its own thin client (Matrix, over undici) says so instead of naming a library.
      if (pkg.outbox?.client !== "built-in") expect(platform.length).toBeGreaterThan(0);
      expect(pkg.dependencies?.["@outbox/core"]).toBeDefined();
      for (const library of platform) {
        expect(pkg.dependencies?.[library], `${library} in dependencies`).toBeUndefined();
        for (const other of packageDirs().filter((d) => d !== dir)) {
          const manifest = JSON.parse(readFileSync(join(other, "package.json"), "utf8"));
          // An application (a package with a `bin`, such as the `outbox` command) may bring
          // platform libraries so that it runs as installed; libraries never do.
          if (manifest.bin) continue;
          const runtime = { ...manifest.dependencies, ...manifest.peerDependencies };
          expect(runtime[library], `${library} in ${other}`).toBeUndefined();
        }
      }
    });
  }
});

describe("core stays platform-free", () => {
  it("core depends on no platform library", () => {
    const core = JSON.parse(readFileSync(join(root, "packages", "core", "package.json"), "utf8"));
    const deps = Object.keys({ ...core.dependencies, ...core.peerDependencies });
    for (const platform of ["grammy", "@slack/web-api", "@slack/bolt", "discord.js", "@discordjs/rest"]) {
      expect(deps).not.toContain(platform);
    }
  });
});

describe("package READMEs", () => {
  it.each(packageDirs())(
    "%s/README.md links nothing outside its package (a tarball holds only the package)",
    (dir) => {
      const readme = readFileSync(join(dir, "README.md"), "utf8");
      expect(readme.match(/\]\(\.\.\/[^)]*\)/g) ?? []).toEqual([]);
    },
  );
});

describe("core's entries", () => {
  it("the main entry is the integrator's: the emulator kit is ./testing, queue internals ./internal", async () => {
    const main: Record<string, unknown> = await import("@outbox/core");
    const testing: Record<string, unknown> = await import("@outbox/core/testing");
    const internal: Record<string, unknown> = await import("@outbox/core/internal");
    for (const name of ["serveEmulator", "serveFaults", "createTokenBuckets", "readStrictForm"]) {
      expect(main[name], name).toBeUndefined();
      expect(typeof testing[name], name).toBe("function");
    }
    for (const name of ["Fifo", "limitRates", "heldBackBurst", "createPacer", "resolveRetryPolicy"]) {
      expect(main[name], name).toBeUndefined();
      expect(typeof internal[name], name).toBe("function");
    }
    // An emulated channel's inject throws this: integrators catch it from the main entry.
    expect(main.UnknownFaultError).toBe(testing.UnknownFaultError);
  });
});
