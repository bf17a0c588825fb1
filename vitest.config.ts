import { defineConfig } from "vitest/config";

/** Test projects are found by glob: every package, every adapter, and the repo-level tests. */
export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      "adapters/*/vitest.config.ts",
      "test/vitest.config.ts",
      "test/pack/vitest.config.ts",
    ],
    reporters: ["default", ["json", { outputFile: ".outbox-tmp/vitest-results.json" }]],
  },
});
