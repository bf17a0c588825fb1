// Prints the plain test total, "N passed, N failed", from vitest's JSON report.
// A run that failed without a failing test (lint, type-check, a suite that did not load)
// counts as one failure, so the total never reads green when the run was red. An optional
// third argument, the exit status of `pnpm bench --quick`, counts as one more check.
import { existsSync, readFileSync } from "node:fs";

const [file, status, bench] = process.argv.slice(2);
const report = file && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
let passed = report?.numPassedTests ?? 0;
let failed = report?.numFailedTests ?? 0;
if (status !== "0" && failed === 0) failed = 1;
if (bench === "0") passed += 1;
else if (bench !== undefined) failed += 1;
const skipped = (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
