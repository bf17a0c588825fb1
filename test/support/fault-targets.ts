/** The fault targets docs/conformance.md lists, read back for the tests that check them. */
import { readFileSync } from "node:fs";

/** The fault targets docs/conformance.md lists for each platform ("Fault targets"), by platform. */
export function documentedTargets(): Map<string, string[]> {
  const doc = readFileSync(new URL("../../docs/conformance.md", import.meta.url), "utf8");
  const section = doc.slice(doc.indexOf("### Fault targets"));
  const rows = new Map<string, string[]>();
  for (const [, platform, cell] of section.matchAll(/^\| (\w+)[^|]* \| ([^|]+) \| [^|]+ \|$/gm))
    rows.set(
      platform as string,
      [...(cell as string).matchAll(/`([^`]+)`/g)].map((m) => m[1] as string),
    );
  return rows;
}
