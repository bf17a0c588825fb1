/** The `outbox` bin as installed in the workspace (node_modules/.bin/outbox): help, and exit codes of commander's own errors. */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { binPath, cleanEnv, SPAWN_TIMEOUT_MS } from "./support/run-outbox.js";

function bin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

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
