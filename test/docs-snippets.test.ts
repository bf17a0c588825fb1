import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { packageDirs, repoRoot as root } from "./support/workspace.js";

const outDir = join(root, ".outbox-tmp", "snippets");

/** Every Markdown file whose ```ts blocks are part of the product: README, docs/ and each package's README. */
function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(join(dir, entry.name))
        : entry.name.endsWith(".md")
          ? [join(dir, entry.name)]
          : [],
    );
  const packageReadmes = packageDirs().map((dir) => join(dir, "README.md"));
  return [join(root, "README.md"), ...walk(join(root, "docs")), ...packageReadmes].filter((file) =>
    existsSync(file),
  );
}

/** The ```ts / ```typescript blocks of a Markdown file, with the line each starts on. */
function snippets(file: string): Array<{ code: string; line: number }> {
  const found: Array<{ code: string; line: number }> = [];
  const lines = readFileSync(file, "utf8").split("\n");
  let open: { start: number; body: string[] } | undefined;
  lines.forEach((line, index) => {
    if (open) {
      if (/^```\s*$/.test(line)) {
        found.push({ code: open.body.join("\n"), line: open.start + 1 });
        open = undefined;
      } else open.body.push(line);
    } else if (/^```(ts|typescript)\s*$/.test(line)) open = { start: index, body: [] };
  });
  return found;
}

describe("docs snippets", () => {
  it("every ```ts block in README.md, docs/ and every package README type-checks against the workspace packages", {
    timeout: 180_000,
  }, () => {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const origin = new Map<string, string>();
    for (const file of markdownFiles()) {
      for (const { code, line } of snippets(file)) {
        const name = join(outDir, `${relative(root, file).replace(/[^a-zA-Z0-9]+/g, "_")}_L${line}.ts`);
        // Each snippet is its own module, so top-level names never clash between snippets.
        writeFileSync(name, `${code}\nexport {};\n`);
        origin.set(name, `${relative(root, file)}:${line}`);
      }
    }
    expect(origin.size).toBeGreaterThan(0);
    const base = ts.readConfigFile(join(root, "tsconfig.base.json"), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(base.config, ts.sys, root);
    const program = ts.createProgram([...origin.keys()], { ...options, noEmit: true, noUnusedLocals: false });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file
        ? (origin.get(diagnostic.file.fileName) ?? diagnostic.file.fileName)
        : "?";
      return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    });
    expect(problems).toEqual([]);
  });
});
