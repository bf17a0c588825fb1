/**
 * The vitest reporter of `outbox conformance`: collects every case's outcome, and prints
 * them as one aligned table with a closing `N passed, N failed, N skipped` line.
 */
import type { Reporter, TestModule } from "vitest/node";
import { padEnd, type Terminal, widest } from "../output/terminal.js";

/** One case's outcome. */
export interface CaseRow {
  /** The case id (with the harness's skip reason when skipped by the harness). */
  name: string;
  /** What happened. */
  state: "passed" | "failed" | "skipped";
  /** Why it failed or was skipped. */
  note: string;
}

/** What the run produced: the case rows and the errors that kept the suite from loading. */
export interface CaseTable {
  /** Every case, in order. */
  rows: CaseRow[];
  /** Errors outside any case (the module failed to load, no harness exported, …). */
  errors: string[];
}

/** A reporter filling `table` when the run ends. */
export function caseTableReporter(table: CaseTable): Reporter {
  return {
    onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled) {
      for (const module of modules) {
        for (const error of module.errors()) table.errors.push(error.message);
        for (const test of module.children.allTests()) {
          const result = test.result();
          const state = result.state === "pending" ? "skipped" : result.state;
          const note =
            result.state === "failed"
              ? (result.errors?.[0]?.message ?? "failed")
              : result.state === "skipped"
                ? (result.note ?? "")
                : "";
          table.rows.push({ name: test.name, state, note: note.split("\n")[0] ?? "" });
        }
      }
      for (const error of unhandled) table.errors.push(error.message);
    },
  };
}

/** Print the table and the closing counts line. */
export function printCaseTable(term: Terminal, title: string, table: CaseTable): void {
  const c = term.colors;
  const mark = { passed: c.green("✓ passed"), failed: c.red("✗ failed"), skipped: c.yellow("- skipped") };
  term.out(c.bold(title));
  const width = widest(table.rows.map((row) => row.name));
  const stateWidth = widest(Object.values(mark));
  for (const row of table.rows)
    term.out(
      `  ${padEnd(row.name, width)}  ${padEnd(mark[row.state], stateWidth)}  ${c.dim(row.note)}`.trimEnd(),
    );
  const count = (state: CaseRow["state"]) => table.rows.filter((row) => row.state === state).length;
  term.out("");
  term.out(`${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped`);
}
