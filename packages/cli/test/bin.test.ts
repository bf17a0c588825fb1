/** The `outbox` bin as installed in the workspace (node_modules/.bin/outbox): help, and exit codes of commander's own errors. */
import { describe, expect, it } from "vitest";
import { binPath, run, SPAWN_TIMEOUT_MS } from "./support/run-outbox.js";

const bin = (args: string[]) => run(process.execPath, [binPath, ...args]);

describe.concurrent("bin/outbox.js", { timeout: SPAWN_TIMEOUT_MS }, () => {
  it("--help lists every command and exits 0", async () => {
    const run = await bin(["--help"]);
    expect(run.code).toBe(0);
    for (const command of ["demo", "parse", "send", "conformance"])
      expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"));
  });

  it("an unknown command exits 2 with one line", async () => {
    const run = await bin(["frobnicate"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("outbox: unknown command 'frobnicate' (see outbox --help)\n");
  });
});
