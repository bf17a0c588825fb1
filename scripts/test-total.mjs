// Prints the plain test total, "N passed, N failed", from vitest's JSON report, after a line
// for each failed test (file, name and the first line of its error), so the tail of a CI log
// says what failed. A run that failed without a failing test (lint, type-check, a suite that
// did not load) counts as one failure, so the total never reads green when the run was red.
// An optional third argument, the exit status of `pnpm bench --quick`, counts as one more check.
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

const [file, status, bench] = process.argv.slice(2);
const report = file && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
for (const suite of report?.testResults ?? []) {
  const where = relative(process.cwd(), suite.name);
  const failedTests = suite.assertionResults.filter((test) => test.status === "failed");
  for (const test of failedTests) {
    const reason = (test.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 300);
    console.log(`FAILED ${where} > ${test.fullName}: ${reason}`);
  }
  if (suite.status === "failed" && failedTests.length === 0) {
    console.log(`FAILED ${where}: ${(suite.message ?? "the file did not run").split("\n")[0]}`);
  }
}
let passed = report?.numPassedTests ?? 0;
let failed = report?.numFailedTests ?? 0;
if (status !== "0" && failed === 0) failed = 1;
if (bench === "0") passed += 1;
else if (bench !== undefined) failed += 1;
const skipped = (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
