#!/usr/bin/env node
// The `outbox` command. Inside the Outbox workspace (sources and tsx present) it runs the
// TypeScript sources with the `source` export condition; an installed package runs dist/.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../src/main.ts", import.meta.url));
let tsx;
try {
  tsx = import.meta.resolve("tsx");
} catch {
  tsx = undefined;
}
if (tsx && existsSync(source)) {
  const child = spawnSync(
    process.execPath,
    ["--conditions=source", "--import", tsx, source, ...process.argv.slice(2)],
    {
      stdio: "inherit",
    },
  );
  process.exitCode = child.status ?? 2;
} else {
  await import("../dist/main.js");
}
