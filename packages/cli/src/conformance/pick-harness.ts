/**
 * Find the conformance harness a module exports: a `ConformanceHarness` object, or a
 * `create…Harness()` factory called with no arguments. Runs inside the generated test file.
 */
import type { ConformanceHarness } from "@outbox/conformance";

/** The harness of `module` (`exportName` picks one export when several qualify). */
export async function pickHarness(
  module: Record<string, unknown>,
  specifier: string,
  exportName?: string,
): Promise<ConformanceHarness> {
  const candidates = exportName
    ? [exportName]
    : Object.keys(module).filter((name) => isHarness(module[name]) || isFactory(name, module[name]));
  if (candidates.length === 0)
    throw new Error(
      `${specifier} exports no conformance harness. Fix: export a ConformanceHarness or a create<Platform>Harness() factory, or pass --export <name>`,
    );
  if (candidates.length > 1)
    throw new Error(
      `${specifier} exports several harnesses (${candidates.join(", ")}). Fix: pass --export <name>`,
    );
  const name = candidates[0] as string;
  const value = module[name];
  const harness = typeof value === "function" ? await (value as () => unknown)() : value;
  if (!isHarness(harness))
    throw new Error(
      `${specifier}: export "${name}" is not a conformance harness (an object with name and setup()). Fix: pass --export <name> of the harness or of its factory`,
    );
  return harness;
}

function isHarness(value: unknown): value is ConformanceHarness {
  const candidate = value as Partial<ConformanceHarness> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.name === "string" &&
    typeof candidate.setup === "function"
  );
}

function isFactory(name: string, value: unknown): boolean {
  return typeof value === "function" && /^create\w*Harness$/.test(name);
}
