/**
 * The docs name every platform: the per-platform tables are generated from the adapter
 * descriptors (test/platform-docs.ts) and must match what is committed, and every table a
 * platform belongs in (a row or a column per platform), every guide with a section per
 * platform and every line listing the platforms names each adapter of adapters/.
 * Regenerate with: OUTBOX_UPDATE_DOCS=1 npx vitest run --project repo platform-docs
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findAdapterDescriptors } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { type DocBlock, markers, renderDocBlocks } from "./platform-docs.js";
import { repoRoot, workspaceNames } from "./support/workspace.js";

const descriptors = await findAdapterDescriptors({
  from: [],
  adapters: workspaceNames("adapters").map((name) => join(repoRoot, "adapters", name)),
});

/** Where each generated table must appear. */
const placed: Array<[file: string, block: DocBlock]> = [
  ["docs/getting-started.md", "platform-settings"],
  ["docs/cli.md", "platform-settings"],
  ["docs/cli.md", "platform-targets"],
  ["docs/mcp.md", "platform-settings"],
  ["docs/mcp.md", "platform-targets"],
  ["docs/streaming.md", "streaming-modes"],
];

/** Hand-written tables with a row per platform (their cells are prose): each must name every adapter. */
const rowPerPlatform: Array<[file: string, header: string]> = [
  ["docs/live-preview.md", "| platform | edit call | delete call |"],
  ["docs/conformance.md", "| platform | fault targets | named after |"],
  ["docs/delivery.md", "| platform | can the bot see whether it arrived? |"],
  ["docs/delivery.md", "| platform | the server closes idle connections after |"],
  ["docs/protocol.md", "| platform | what the reply cannot do |"],
];

/** Hand-written tables with a column per platform: the header names every adapter. */
const columnPerPlatform: Array<[file: string, header: string]> = [
  ["docs/delivery.md", "| fault | Telegram |"],
];

/**
 * Lines of prose that list the platforms (the demo's, the MCP server's), with the number of
 * lines the list runs over when more than one: each names every adapter, by title or `name`.
 */
const platformLists: Array<[file: string, line: string, lines?: number]> = [
  ["README.md", "# Run the demo:"],
  ["README.md", "| `npx -y pnpm@10.34.8 demo`"],
  ["docs/cli.md", "Starts every installed adapter's emulator in-process", 2],
  ["docs/mcp.md", "| a **user** who wants an agent to post to"],
  ["docs/mcp.md", "| `platform` | an offered platform:"],
];

/** Guides with a section per platform (`## 2. Telegram`): each must have one for every adapter. */
const sectionPerPlatform: string[] = ["docs/getting-started.md"];

/** The line of `file` that starts with `start` (leading spaces aside), and the `count - 1` after it. */
function lineStarting(file: string, start: string, count = 1): string {
  const lines = readFileSync(join(repoRoot, file), "utf8").split("\n");
  const index = lines.findIndex((candidate) => candidate.trimStart().startsWith(start));
  expect(index, `${file}: a line starting "${start}"`).toBeGreaterThanOrEqual(0);
  return lines.slice(index, index + count).join(" ");
}

describe("the docs name every platform", () => {
  it.each([...new Set(placed.map(([file]) => file))])(
    "%s: its generated tables match the adapter descriptors",
    (file) => {
      const path = join(repoRoot, file);
      const doc = readFileSync(path, "utf8");
      const generated = renderDocBlocks(doc, descriptors);
      if (process.env.OUTBOX_UPDATE_DOCS === "1") writeFileSync(path, generated);
      expect(doc).toBe(generated);
    },
  );

  it.each(placed)("%s holds the %s table, naming every adapter", (file, block) => {
    const doc = readFileSync(join(repoRoot, file), "utf8");
    const { begin, end } = markers(block);
    expect(doc).toContain(begin);
    const table = doc.slice(doc.indexOf(begin), doc.indexOf(end));
    for (const descriptor of descriptors) expect(table, descriptor.name).toContain(`| ${descriptor.title} `);
  });

  it.each(rowPerPlatform)("%s: the table under %s has a row per adapter", (file, header) => {
    const doc = readFileSync(join(repoRoot, file), "utf8");
    const start = doc.indexOf(header);
    expect(start).toBeGreaterThanOrEqual(0);
    const rows = doc.slice(start).split("\n\n")[0]?.split("\n") ?? [];
    for (const descriptor of descriptors)
      expect(
        rows.some((row) => [descriptor.title, descriptor.name].some((n) => row.startsWith(`| ${n} |`))),
        descriptor.name,
      ).toBe(true);
  });

  it.each(columnPerPlatform)("%s: the table under %s has a column per adapter", (file, header) => {
    const cells = lineStarting(file, header)
      .split("|")
      .map((cell) => cell.trim());
    for (const descriptor of descriptors) expect(cells, descriptor.name).toContain(descriptor.title);
  });

  it.each(sectionPerPlatform)("%s has a section per adapter", (file) => {
    const headings = readFileSync(join(repoRoot, file), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("## "));
    for (const descriptor of descriptors)
      expect(
        headings.some((heading) => heading.endsWith(` ${descriptor.title}`)),
        descriptor.name,
      ).toBe(true);
  });

  it.each(platformLists)("%s: the line %s names every adapter", (file, start, lines) => {
    const line = lineStarting(file, start, lines);
    for (const descriptor of descriptors)
      expect(
        line.includes(descriptor.title) || line.includes(`\`${descriptor.name}\``),
        descriptor.name,
      ).toBe(true);
  });

  it("a platform missing from a generated table fails the comparison", () => {
    const { begin, end } = markers("platform-settings");
    const doc = `${begin}\n${end}\n`;
    const all = renderDocBlocks(doc, descriptors);
    expect(renderDocBlocks(doc, descriptors.slice(1))).not.toBe(all);
  });
});
