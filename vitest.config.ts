import { defineConfig } from "vitest/config";

/**
 * Test projects are found by glob: every package, every adapter, and the repo-level tests.
 * Two workers: most tests wait on emulators, rate-limit windows and child processes rather
 * than on the CPU, so two files at a time on a 2-core machine nearly halve the run. The
 * queue project runs alone afterwards (its own `sequence.groupOrder`): its Redis outage and
 * lock tests judge histories against real lock and retry timers.
 */
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      "packages/*/vitest.config.ts",
      "adapters/*/vitest.config.ts",
      "test/vitest.config.ts",
      "test/pack/vitest.config.ts",
    ],
    reporters: ["default", ["json", { outputFile: ".outbox-tmp/vitest-results.json" }]],
  },
});
