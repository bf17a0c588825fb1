import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageDirs } from "./support/workspace.js";

describe("workspace shape", () => {
  it("every package is strict ESM with a source export condition and an engines field", () => {
    const dirs = packageDirs();
    expect(dirs.length).toBeGreaterThanOrEqual(3);
    for (const dir of dirs) {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      expect(pkg.name, dir).toMatch(/^@outbox\//);
      expect(pkg.type, dir).toBe("module");
      expect(pkg.engines?.node, dir).toBeTruthy();
      expect(pkg.exports["."].source, dir).toBe("./src/index.ts");
    }
  });

  it("every package publishes its built code: exports point at dist/, files hold no tests, access is public", () => {
    for (const dir of packageDirs()) {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (pkg.private) continue;
      for (const [entry, conditions] of Object.entries(
        pkg.exports as Record<string, Record<string, string>>,
      )) {
        expect(conditions.source, `${dir} ${entry}`).toMatch(/^\.\/src\/.+\.ts$/);
        expect(conditions.types, `${dir} ${entry}`).toBe(
          conditions.source?.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, ".d.ts"),
        );
        expect(conditions.default, `${dir} ${entry}`).toBe(
          conditions.source?.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, ".js"),
        );
        expect(Object.keys(conditions), `${dir} ${entry}: source first, default last`).toEqual([
          "source",
          "types",
          "default",
        ]);
      }
      expect(pkg.files, dir).toContain("dist");
      expect(
        pkg.files.some((f: string) => /test/.test(f)),
        dir,
      ).toBe(false);
      expect(pkg.publishConfig?.access, dir).toBe("public");
    }
  });

  it("every package has a README: what it is, install, an example, where the docs are", () => {
    for (const dir of packageDirs()) {
      const readme = join(dir, "README.md");
      expect(existsSync(readme), readme).toBe(true);
      const text = readFileSync(readme, "utf8");
      expect(text, readme).toMatch(/^# @outbox\//);
      expect(text, readme).toMatch(/^## Install$/m);
      expect(text, readme).toMatch(/```sh\n(npm|pnpm) (install|add) [^\n]*@outbox\//);
      expect(text, readme).toMatch(/```ts\n/);
      // Named, not linked: a tarball holds no docs/ (package-shape.test.ts forbids ../ links).
      expect(text, readme).toMatch(/`docs\/[^`]+\.md` in the Outbox repository/);
    }
  });
});
