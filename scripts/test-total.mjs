// Prints the plain test total, "N passed, N failed", from vitest's JSON report.
// A run that failed without a failing test (lint, type-check, a suite that did not load)
// counts as one failure, so the total never reads green when the run was red.
import { existsSync, readFileSync } from "node:fs";

const [file, status] = process.argv.slice(2);
const report = file && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
const passed = report?.numPassedTests ?? 0;
let failed = report?.numFailedTests ?? 0;
if (status !== "0" && failed === 0) failed = 1;
const skipped = (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
