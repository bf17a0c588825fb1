/**
 * Runs every benchmark in bench/ one after another (each is a standalone script that
 * prints its table, compares itself with its committed baseline in bench/results/ and
 * exits non-zero when a goal is missed). `pnpm bench` runs this; `pnpm bench parse` runs one.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv.slice(2);
const scripts = readdirSync(dir)
  .filter((file) => file.endsWith(".ts") && file !== "run.ts")
  .filter((file) => only.length === 0 || only.includes(file.replace(/\.ts$/, "")));

let failed = 0;
for (const script of scripts) {
  console.log(`\n=== bench/${script}`);
  const run = spawnSync(process.execPath, ["--import", "tsx", "--conditions=source", `${dir}${script}`], {
    stdio: "inherit",
  });
  if (run.status !== 0) failed += 1;
}
console.log(`\n${scripts.length - failed} benchmarks met their goals, ${failed} missed`);
process.exit(failed === 0 ? 0 : 1);
