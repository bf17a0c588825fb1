/**
 * A throwaway adapter package as an outside author would publish it: Outbox's reference
 * adapter over its in-memory platform, with a descriptor, so that the packed `outbox` and
 * `outbox-mcp` can be shown to use an adapter that is not in this repository.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Its package name, platform name and the token its descriptor requires. */
export const ECHO = { packageName: "outbox-adapter-echo", platform: "echo", token: "echo-secret-token-1234" };

/** Write the package (package.json and descriptor.js) into `dir`. */
export function writeEchoAdapter(dir: string): void {
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify(
      {
        name: ECHO.packageName,
        version: "1.0.0",
        type: "module",
        exports: { ".": "./descriptor.js", "./descriptor": "./descriptor.js" },
        peerDependencies: { "@outbox/conformance": "*", "@outbox/core": "*" },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(dir, "descriptor.js"),
    `import { createReferenceAdapter, REFERENCE_CHAT, ReferenceEmulator, referenceCapabilities } from "@outbox/conformance";

function channel(media) {
  const emulator = new ReferenceEmulator(referenceCapabilities);
  return { emulator, adapter: createReferenceAdapter({ emulator, ...(media ? { media } : {}) }) };
}

/** @type {import("@outbox/core").AdapterDescriptor<"token">} */
export const descriptor = {
  name: ${JSON.stringify(ECHO.platform)},
  title: "Echo",
  packages: [${JSON.stringify(ECHO.packageName)}],
  env: [{ name: "OUTBOX_ECHO_TOKEN", field: "token", required: true, secret: true, help: "any value" }],
  target: { description: "the chat reference-chat", example: REFERENCE_CHAT },
  capabilities: referenceCapabilities,
  async createAdapter(config, media) {
    if (config.token !== ${JSON.stringify(ECHO.token)}) throw new Error("OUTBOX_ECHO_TOKEN did not arrive");
    return channel(media).adapter;
  },
  async createEmulatedChannel(options = {}) {
    const { emulator, adapter } = channel(options.media);
    return {
      platform: ${JSON.stringify(ECHO.platform)},
      adapter,
      target: { to: REFERENCE_CHAT },
      observe: () => emulator.observe(),
      inject: (fault) => emulator.inject(fault),
      close: async () => adapter.close?.(),
    };
  },
};
`,
  );
}

/** A script sending one message through the installed `outbox-mcp` over stdio, with `args`; prints the instructions and the tool result. */
export function mcpScript(args: string[]): string {
  return `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const transport = new StdioClientTransport({
  command: process.execPath,
  args: ["node_modules/.bin/outbox-mcp", ...${JSON.stringify(args)}],
  env: { ...process.env },
});
const client = new Client({ name: "pack", version: "0" });
await client.connect(transport);
const result = await client.callTool({
  name: "send_message",
  arguments: { platform: ${JSON.stringify(ECHO.platform)}, to: "reference-chat", message: "Hello from the packed outbox-mcp" },
});
console.log(JSON.stringify({ instructions: client.getInstructions(), result }));
await client.close();
`;
}
