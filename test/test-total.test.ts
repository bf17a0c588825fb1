import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

/** Runs scripts/test-total.mjs, as `.ci/run` does, on a vitest JSON report written here. */
function total(report: object, status: string, bench?: string): string[] {
  const file = join(mkdtempSync(join(tmpdir(), "outbox-total-")), "report.json");
  writeFileSync(file, JSON.stringify(report));
  const args = ["scripts/test-total.mjs", file, status, ...(bench === undefined ? [] : [bench])];
  return execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim().split("\n");
}

describe("the CI total", () => {
  it("names each failed test before the plain total, so the log's tail says what failed", () => {
    const report = {
      numPassedTests: 3,
      numFailedTests: 1,
      numPendingTests: 2,
      numTodoTests: 0,
      testResults: [
        {
          name: join(root, "adapters/web/test/conformance.test.ts"),
          status: "failed",
          assertionResults: [
            { status: "passed", fullName: "conformance (web) text.plain" },
            {
              status: "failed",
              fullName: "conformance (web) untrusted.nesting",
              failureMessages: ["Error: page.evaluate failed\n    at snapshot.ts:95"],
            },
          ],
        },
        {
          name: join(root, "test/broken.test.ts"),
          status: "failed",
          message: "Failed to load x\nstack",
          assertionResults: [],
        },
      ],
    };
    expect(total(report, "1", "0")).toEqual([
      "FAILED adapters/web/test/conformance.test.ts > conformance (web) untrusted.nesting: Error: page.evaluate failed",
      "FAILED test/broken.test.ts: Failed to load x",
      "4 passed, 1 failed, 2 skipped",
    ]);
  });

  it("counts a red run with no failed test as one failure, and the bench as one check", () => {
    const report = {
      numPassedTests: 5,
      numFailedTests: 0,
      numPendingTests: 0,
      numTodoTests: 0,
      testResults: [],
    };
    expect(total(report, "1", "1")).toEqual(["5 passed, 2 failed"]);
    expect(total(report, "0")).toEqual(["5 passed, 0 failed"]);
  });
});
