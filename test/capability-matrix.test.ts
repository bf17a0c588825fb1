import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Capabilities } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { renderCapabilityMatrix } from "./capability-matrix.js";
import { repoRoot as root, workspaceNames } from "./support/workspace.js";

const file = join(root, "docs", "capabilities.md");

async function loadCapabilities(): Promise<Array<{ name: string; capabilities: Capabilities }>> {
  // The chat adapters, then the web inbox (packages/web), which is an adapter too.
  const names = [...workspaceNames("adapters"), "web"];
  return Promise.all(
    names.map(async (name) => {
      const mod = await import(`@outbox/${name}`);
      return { name, capabilities: mod[`${name}Capabilities`] as Capabilities };
    }),
  );
}

describe("capability matrix", () => {
  it("docs/capabilities.md is generated from the adapters' declared capabilities", async () => {
    const generated = renderCapabilityMatrix(await loadCapabilities());
    if (process.env.OUTBOX_UPDATE_DOCS === "1") writeFileSync(file, generated);
    // Regenerate with: OUTBOX_UPDATE_DOCS=1 npx vitest run --project repo capability-matrix
    expect(readFileSync(file, "utf8")).toBe(generated);
  });
});
