import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Absolute path of the repository root. */
export const repoRoot: string = new URL("../..", import.meta.url).pathname;

/** Folder names under a workspace group (`packages` or `adapters`), sorted: packages are found by glob, never listed. */
export function workspaceNames(group: "packages" | "adapters"): string[] {
  return readdirSync(join(repoRoot, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Absolute paths of every workspace package: `packages/*` and `adapters/*`. */
export function packageDirs(): string[] {
  return (["packages", "adapters"] as const).flatMap((group) =>
    workspaceNames(group).map((name) => join(repoRoot, group, name)),
  );
}

/** Names whose product spelling is not the folder name capitalized. */
const SPELLING: Record<string, string> = { whatsapp: "WhatsApp", googlechat: "GoogleChat" };

/** An adapter's name as its exports spell it (`telegram` → `Telegram`, `whatsapp` → `WhatsApp`). */
export function pascalName(name: string): string {
  return SPELLING[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
}
