/**
 * A degradation is spelled one way wherever it happens: a receipt reader matching
 * `voice → audio` must not miss the same fallback written `voice note → audio file` by one
 * adapter. Every degradation literal in the sources (core, every adapter, every package)
 * names a kind of message by its `MessageKind` alone, and every `from → to` a doc quotes is
 * one the code writes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { MessageKind } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { packageDirs, repoRoot } from "./support/workspace.js";

/** Every kind of message, as receipts name them. */
const KINDS = [
  "text",
  "image",
  "animation",
  "video",
  "audio",
  "document",
  "voice",
  "album",
] as const satisfies readonly MessageKind[];
// Fails to compile when a kind is added to MessageKind and not here.
const everyKind: Exclude<MessageKind, (typeof KINDS)[number]> extends never ? true : false = true;

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(suffix))
    .map((file) => join(dir, file));
}

/** `{ from: "voice", to: "audio"` object literals, with the file they are in. */
const DEGRADATION = /\bfrom:\s*"([^"]+)",\s*to:\s*"([^"]+)"/g;
const written = packageDirs()
  .flatMap((dir) => filesUnder(join(dir, "src"), ".ts"))
  .flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(DEGRADATION)].map(
      (match) => [relative(repoRoot, file), match[1] as string, match[2] as string] as const,
    ),
  );
const terms = new Set<string>([...KINDS, ...written.flatMap(([, from, to]) => [from, to])]);

/** `` `voice → audio` `` as docs quote a receipt's degradation. */
const QUOTED = /`([a-z][a-z -]*) → ([a-z][a-z -]*)`/g;
const quoted = [
  join(repoRoot, "README.md"),
  ...filesUnder(join(repoRoot, "docs"), ".md"),
  ...packageDirs().map((dir) => join(dir, "README.md")),
].flatMap((file) => {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return [...text.matchAll(QUOTED)].map(
    (match) => [relative(repoRoot, file), match[1] as string, match[2] as string] as const,
  );
});

/** A term that names a kind of message with more words (`voice note`, `audio file`). */
function kindSpelledOut(term: string): boolean {
  const words = term.split(/[\s-]+/);
  return words.length > 1 && words.some((word) => (KINDS as readonly string[]).includes(word));
}

describe("degradations are spelled one way", () => {
  it("the sources write degradations (the scan finds them)", () => {
    expect(everyKind).toBe(true);
    expect(written.map(([, from, to]) => `${from} → ${to}`)).toContain("voice → audio");
    expect(quoted.length).toBeGreaterThan(0);
  });

  it("every degradation in the sources names a kind of message by its MessageKind", () => {
    const spelledOut = written.filter(([, from, to]) => kindSpelledOut(from) || kindSpelledOut(to));
    expect(spelledOut).toEqual([]);
  });

  it("every degradation a doc quotes is spelled as the code writes it", () => {
    const unknown = quoted.filter(([, from, to]) => !terms.has(from) || !terms.has(to));
    expect(unknown).toEqual([]);
  });
});
