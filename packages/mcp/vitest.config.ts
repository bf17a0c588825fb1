import { mergeConfig } from "vitest/config";
import { outboxProject } from "../../vitest.shared.js";

/**
 * eventsource-parser (imported by the MCP SDK's HTTP client) publishes a `source` export
 * condition pointing at TypeScript, which the workspace's `source` condition selects: the
 * modules on that path are transformed by vitest instead of loaded by Node.
 */
export default mergeConfig(outboxProject("mcp", import.meta.url), {
  test: {
    server: {
      deps: { inline: [/sdk\/dist\/esm\/client\/(streamableHttp|sse)\.js$/, /eventsource-parser/] },
    },
  },
});
