import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { describeCycles, importGraph, packageGraph, tsFiles } from "./support/import-graph.js";
import { packageDirs, repoRoot } from "./support/workspace.js";

/** Writes `files` (path → source) under a fresh temporary folder and returns it. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "outbox-cycles-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("import cycles", () => {
  it("finds type-only, re-export, index and import() cycles, and nothing in a tree without one", () => {
    const root = tree({
      "a.ts": 'import type { B } from "./b.js";\nexport type A = B;',
      "b.ts": 'export { a } from "./dir/index.js";\nexport type B = string;',
      "dir/index.ts": 'import { c } from "../c.js";\nexport const a = c;',
      "c.ts": 'export type C = import("./a.js").A;\nexport const c = 1;',
      "leaf.ts": 'import "./c.js";',
      "self.ts": 'export const load = () => import("./self.js");',
    });
    expect(describeCycles(importGraph(tsFiles(root)), (path) => relative(root, path))).toEqual([
      "4 modules {a.ts, b.ts, c.ts, dir/index.ts}: a.ts -> b.ts -> dir/index.ts -> c.ts -> a.ts",
      "1 modules {self.ts}: self.ts -> self.ts",
    ]);
    const acyclic = tree({ "a.ts": 'import "./b.js";', "b.ts": 'import "./c";', "c/index.ts": "" });
    expect(describeCycles(importGraph(tsFiles(acyclic)))).toEqual([]);
  });

  it("no package's source imports itself back, through any chain of relative imports", () => {
    const files = packageDirs().flatMap((dir) => tsFiles(join(dir, "src")));
    expect(files.length).toBeGreaterThan(100);
    expect(describeCycles(importGraph(files), (path) => relative(repoRoot, path))).toEqual([]);
  });

  it("no package imports itself back through other workspace packages", () => {
    const graph = packageGraph(packageDirs());
    expect(graph.get("@outbox/telegram")).toContain("@outbox/core");
    expect(describeCycles(graph)).toEqual([]);
  });
});
