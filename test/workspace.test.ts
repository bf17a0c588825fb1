import { readFileSync } from "node:fs";
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
});
