import { fileURLToPath } from "node:url";
import { defineProject, type UserWorkspaceConfig } from "vitest/config";

/**
 * The settings every test project shares: workspace packages resolve to their
 * TypeScript sources (the `source` export condition), so tests never need a build.
 */
export function outboxProject(name: string, dirUrl: string): UserWorkspaceConfig {
  return defineProject({
    root: fileURLToPath(new URL(".", dirUrl)),
    resolve: { conditions: ["source", "import", "node", "default"] },
    ssr: { resolve: { conditions: ["source", "import", "node", "default"] } },
    test: {
      name,
      include: name === "repo" ? ["**/*.test.ts"] : name === "pack" ? ["*.test.ts"] : ["test/**/*.test.ts"],
      exclude: name === "repo" ? ["pack/**", "**/node_modules/**"] : ["**/node_modules/**"],
      environment: "node",
      // eventsource-parser (under the AI SDK) also exports a `source` condition pointing at
      // TypeScript; the AI SDK chain is inlined so Vite transforms it instead of Node loading it.
      server: { deps: { inline: ["ai", /@ai-sdk\//, "eventsource-parser"] } },
      testTimeout: 20_000,
      hookTimeout: 20_000,
    },
  });
}
