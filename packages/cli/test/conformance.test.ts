/**
 * `outbox conformance <module>`: the suite run against a module's harness with no vitest
 * config, the case table printed, the exit code telling pass (0), failure (1) or a module
 * that cannot be run (2).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { outbox, SPAWN_TIMEOUT_MS } from "./support/run-outbox.js";

const cwd = import.meta.dirname;

describe.concurrent("outbox conformance", { timeout: SPAWN_TIMEOUT_MS }, () => {
  it("the reference harness (a package's create…Harness factory) passes: exit 0 and the case table", async () => {
    const run = await outbox(
      ["conformance", "@outbox/conformance", "--strict", "--only", "text.", "--only", "reply."],
      {
        cwd,
      },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}text\.plain +✓ passed$/m);
    expect(run.stdout).toMatch(/^ {2}reply\.media +✓ passed$/m);
    expect(run.stdout).toMatch(/^\d+ passed, 0 failed, 0 skipped$/m);
  });

  it("a broken harness (truncates long text): exit 1, the failing cases marked with why", async () => {
    // Its own working directory, where no other test generates a suite at the same time.
    const fixtures = join(cwd, "fixtures");
    const run = await outbox(["conformance", "./broken-harness.ts", "--only", "text."], { cwd: fixtures });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ {2}text\.plain +✓ passed$/m);
    expect(run.stdout).toMatch(/^ {2}text\.long\.split +✗ failed +\S/m);
    expect(run.stdout).toMatch(/^\d+ passed, [1-9]\d* failed, 0 skipped$/m);
    // The generated test directory is removed.
    expect(readdirSync(fixtures).filter((name) => name.startsWith(".outbox-conformance-"))).toEqual([]);
  });

  it("a module without a harness, or no module at all: exit 2, one line with the fix", async () => {
    const [none, missing] = await Promise.all([
      outbox(["conformance", "./fixtures/no-harness.ts"], { cwd }),
      outbox(["conformance", "./fixtures/no-such-module.ts"], { cwd }),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      "outbox conformance: ./fixtures/no-harness.ts exports no conformance harness. Fix: export a ConformanceHarness or a create<Platform>Harness() factory, or pass --export <name>\n",
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(missing.stderr).toMatch(/no-such-module\.ts.*Fix: give a path relative to the working directory/);
  });
});
