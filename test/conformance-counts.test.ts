/**
 * Every adapter's doc states its conformance counts ("N cases pass, M are not applicable"),
 * and they are the suite's: N the cases that apply to the adapter's declared capabilities
 * (in strict mode each of them passes or fails the run), M the rest. A doc goes stale loudly
 * when the suite grows or a capability changes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { conformanceCases } from "@outbox/conformance";
import type { Capabilities } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { repoRoot, workspaceNames } from "./support/workspace.js";

/** The chat adapters, then the web inbox (packages/web), which runs the suite too. */
const adapters = [...workspaceNames("adapters"), "web"];

const COUNTS = /(\d+)\s+cases\s+pass,\s+(\d+)\s+are\s+not\s+applicable/g;

describe("conformance counts in docs/adapters", () => {
  it.each(adapters)("docs/adapters/%s.md states the suite's counts for its capabilities", async (name) => {
    const doc = readFileSync(join(repoRoot, "docs", "adapters", `${name}.md`), "utf8");
    const capabilities = (await import(`@outbox/${name}`))[`${name}Capabilities`] as Capabilities;
    const applicable = conformanceCases.filter((c) => c.applies(capabilities) === true).length;
    const stated = [...doc.matchAll(COUNTS)].map((match) => [Number(match[1]), Number(match[2])]);
    expect(stated).toEqual([[applicable, conformanceCases.length - applicable]]);
  });
});
