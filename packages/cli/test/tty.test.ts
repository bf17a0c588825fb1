/**
 * `outbox demo` in a real pseudo-terminal (util-linux `script`): styled and coloured, with
 * a progress line; the same command piped prints no escape codes (demo.test.ts).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { hasAnsi, nodeArgs, run, SPAWN_TIMEOUT_MS } from "./support/run-outbox.js";

const hasScript = spawnSync("script", ["--version"]).status === 0;
const quote = (arg: string) => `'${arg.replace(/'/g, "'\\''")}'`;

/** Run `outbox <args>` in a pseudo-terminal; resolves everything the terminal showed and the exit code. */
async function inTerminal(args: readonly string[]): Promise<{ code: number; screen: string }> {
  // A fresh pseudo-terminal has no size; give it one, as a terminal window does.
  const command = `stty cols 160 rows 50; ${[process.execPath, ...nodeArgs, ...args].map(quote).join(" ")}`;
  const { code, stdout } = await run("script", ["-qfec", command, "/dev/null"], {
    env: { TERM: "xterm-256color" },
  });
  return { code, screen: stdout };
}

describe.skipIf(!hasScript)("outbox in a terminal", { timeout: SPAWN_TIMEOUT_MS, concurrent: true }, () => {
  it("styles and colours the output and draws a progress line", async () => {
    const { code, screen } = await inTerminal(["demo", "--platform", "telegram"]);
    expect(code).toBe(0);
    expect(hasAnsi(screen)).toBe(true);
    expect(screen).toContain("\u001b[1mtelegram\u001b[22m"); // platform name in bold
    expect(screen).toContain("\u001b[32mdelivered\u001b[39m"); // delivered in green
    expect(screen).toContain("\u001b[31mfailed\u001b[39m"); // failed in red
    expect(screen).toContain("The deploy is \u001b[1mdone\u001b[22m: \u001b[3mall\u001b[23m checks"); // formatting styled
    expect(screen).not.toContain("**done**");
    expect(screen).toContain("starting the emulators and the fixture media host"); // the progress line
  });

  it("parse with no file and a terminal as input asks for the reply instead of waiting (exit 2)", async () => {
    const { code, screen } = await inTerminal(["parse"]);
    expect(code).toBe(2);
    expect(screen).toContain("outbox: no reply given. Fix: pass a file, - to type the reply, or pipe it");
  });
});
