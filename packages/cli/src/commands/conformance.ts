/**
 * `outbox conformance <module>`: run the conformance suite against the harness a module
 * exports, with no vitest config to write. A test file is generated in a temporary
 * directory under the working directory (so the module resolves as the integrator's own
 * code would), and vitest runs it programmatically with an inline config.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { dirname, extname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startVitest } from "vitest/node";
import { type CaseTable, caseTableReporter, printCaseTable } from "../conformance/case-table.js";
import type { Terminal } from "../output/terminal.js";
import { UsageError } from "../output/usage-error.js";

/** Options of `outbox conformance`. */
export interface ConformanceCommandOptions {
  /** The export holding the harness or its factory, when several qualify. */
  export?: string;
  /** Fail the cases the harness skips. */
  strict?: boolean;
  /** Only these case ids or `group.` prefixes. */
  only?: string[];
}

/** Run the suite; resolves 0 when every case passed, 1 when one failed, 2 when the suite could not run. */
export async function runConformance(
  term: Terminal,
  specifier: string,
  options: ConformanceCommandOptions,
): Promise<number> {
  const cwd = process.cwd();
  const dir = await mkdtemp(join(cwd, ".outbox-conformance-"));
  const file = join(dir, "conformance.test.mjs");
  const table: CaseTable = { rows: [], errors: [] };
  try {
    await writeFile(file, testFile(importable(specifier, cwd), specifier, options));
    const conditions = nodeConditions();
    const resolveConditions =
      conditions.length > 0 ? { conditions: [...conditions, "import", "node", "default"] } : {};
    const vitest = await startVitest(
      "test",
      [],
      {
        config: false,
        root: cwd,
        include: [file],
        watch: false,
        reporters: [caseTableReporter(table)],
        testTimeout: 60_000,
        hookTimeout: 60_000,
      },
      { resolve: resolveConditions, ssr: { resolve: resolveConditions } },
    );
    await vitest.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  for (const error of table.errors) term.err(`outbox conformance: ${withFix(error.split("\n")[0] ?? error)}`);
  if (table.errors.length > 0 || table.rows.length === 0) return 2;
  printCaseTable(term, `conformance of ${specifier}`, table);
  return table.rows.some((row) => row.state === "failed") ? 1 : 0;
}

/** A load error with the fix appended when the error does not carry one. */
function withFix(message: string): string {
  if (message.includes("Fix:")) return message;
  if (/cannot find (module|package)|failed to (load|resolve)/i.test(message))
    return `${message}. Fix: give a path relative to the working directory (./src/testing.ts) or an installed package's entry`;
  return message;
}

/** A path relative to the working directory made absolute; a package name kept as is. */
function importable(specifier: string, cwd: string): string {
  if (specifier.trim() === "")
    throw new UsageError(
      "no module given",
      "pass the module that exports the harness, e.g. ./src/testing.ts",
    );
  return specifier.startsWith(".") || isAbsolute(specifier) ? resolve(cwd, specifier) : specifier;
}

/** The generated test file: import the module, pick its harness, register the suite. */
function testFile(module: string, specifier: string, options: ConformanceCommandOptions): string {
  const self = fileURLToPath(import.meta.url);
  const ext = extname(self);
  const sibling = (path: string) => JSON.stringify(join(dirname(self), `${path}${ext}`));
  const suite = {
    ...(options.strict ? { strict: true } : {}),
    ...(options.only ? { only: options.only } : {}),
  };
  return [
    `import * as module from ${JSON.stringify(module)};`,
    `import { describeConformance } from ${JSON.stringify(fileURLToPath(import.meta.resolve("@outbox/conformance")))};`,
    `import { pickHarness } from ${sibling("../conformance/pick-harness")};`,
    `const harness = await pickHarness(module, ${JSON.stringify(specifier)}, ${JSON.stringify(options.export)});`,
    `describeConformance(harness, ${JSON.stringify(suite)});`,
    "",
  ].join("\n");
}

/** The custom export conditions Node runs with (`--conditions=source`), so vitest resolves as Node does. */
function nodeConditions(): string[] {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  const conditions: string[] = [];
  flags.forEach((flag, index) => {
    const inline = /^(?:--conditions|-C)=(.+)$/.exec(flag);
    if (inline?.[1]) conditions.push(inline[1]);
    else if ((flag === "--conditions" || flag === "-C") && flags[index + 1])
      conditions.push(flags[index + 1] as string);
  });
  return conditions;
}
