/**
 * The README's 30-second examples work as written: each ```ts block of that section is
 * written out unchanged and run (they drive the adapters' emulators, so nothing leaves 127.0.0.1).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { repoRoot } from "./support/workspace.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const section = readme.slice(
  readme.indexOf("## 30-second example"),
  readme.indexOf("\n## ", readme.indexOf("## 30-second example") + 1),
);
const blocks = [...section.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((match) => match[1] ?? "");

describe("README 30-second examples", () => {
  it("there is at least one", () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  blocks.forEach((code, index) => {
    it(`example ${index + 1} runs as written and prints a delivered receipt`, async () => {
      const dir = join(repoRoot, ".outbox-tmp", "readme-examples");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `example-${index + 1}.ts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      const printed: unknown[][] = [];
      const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
        printed.push(args);
      });
      try {
        await import(/* @vite-ignore */ file);
      } finally {
        log.mockRestore();
      }
      expect(printed[0]).toEqual([true, [], []]);
      expect(JSON.stringify(printed[1])).toMatch(/"kind":"text"/);
    });
  });
});
