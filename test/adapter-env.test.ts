/**
 * One reading of each platform's environment: for every adapter in adapters/, its standalone
 * emulator is reached only through the variables its descriptor declares (token, API address,
 * WhatsApp's Graph API URL and phone number id, Matrix's homeserver), and the `outbox`
 * command and the `outbox-mcp` server both deliver there with that environment alone. A tool
 * that ignored a variable would go to the real platform, unreachable here, and fail. The
 * variables a descriptor marks secret are kept out of both tools' output whatever their name.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { findAdapterDescriptors } from "@outbox/core";
import { openOutboxMcp } from "@outbox/mcp";
import { describe, expect, it } from "vitest";
import { outbox, SPAWN_TIMEOUT_MS } from "../packages/cli/test/support/run-outbox.js";
import { repoRoot, workspaceNames } from "./support/workspace.js";

const descriptors = await findAdapterDescriptors({
  from: [],
  adapters: workspaceNames("adapters").map((name) => join(repoRoot, "adapters", name)),
});

describe("each adapter's environment, read once for the CLI and the MCP server", () => {
  it("every adapter in adapters/ has a descriptor with a standalone emulator", () => {
    expect(descriptors.map((descriptor) => descriptor.name)).toEqual(workspaceNames("adapters"));
    for (const descriptor of descriptors)
      expect(descriptor.startEmulator, descriptor.name).toBeTypeOf("function");
  });

  describe.concurrent.each(descriptors)("$name", { timeout: SPAWN_TIMEOUT_MS }, (descriptor) => {
    it("outbox send and outbox-mcp both deliver through the variables the descriptor declares, and only those", async () => {
      const emulator = await descriptor.startEmulator?.({ rateLimits: false });
      if (!emulator) throw new Error(`${descriptor.name}: no standalone emulator`);
      try {
        // Every variable the descriptor declares is set, so both tools are shown to honour each.
        const declared = descriptor.env.map((variable) => variable.name);
        expect(Object.keys(emulator.env).sort()).toEqual([...declared].sort());
        for (const variable of descriptor.env.filter((v) => v.required))
          expect(emulator.env[variable.name], variable.name).toBeDefined();
        const chat = emulator.chats[0] as string;

        const cli = await outbox(["send", descriptor.name, "--to", chat, "Hello from the CLI"], {
          env: emulator.env,
        });
        expect(cli.code, cli.stderr).toBe(0);

        const mcp = await openOutboxMcp({ descriptors: [descriptor], env: emulator.env });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        const client = new Client({ name: "test", version: "0" });
        try {
          await Promise.all([mcp.createServer().connect(serverSide), client.connect(clientSide)]);
          expect(mcp.instructions).toContain(`outbox-mcp delivers to: ${descriptor.name}.`);
          const result = CallToolResultSchema.parse(
            await client.callTool({
              name: "send_message",
              arguments: { platform: descriptor.name, to: chat, message: "Hello from MCP" },
            }),
          );
          expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        } finally {
          await client.close();
          await mcp.close();
        }
        const texts = emulator.observe(chat).map((message) => message.text ?? "");
        expect(texts).toEqual(["Hello from the CLI", "Hello from MCP"]);
      } finally {
        await emulator.close();
      }
    });
  });
});

describe("a secret variable of any name, as the descriptor declares it", () => {
  it("neither outbox send nor outbox-mcp prints its value", { timeout: SPAWN_TIMEOUT_MS }, async () => {
    const secret = "acme-key-7f3a9c2e51";
    // A third party's adapter whose credential is not called *_TOKEN; building it fails with
    // a message that echoes the credential, as a careless client library's error might.
    const dir = mkdtempSync(join(tmpdir(), "outbox-acme-"));
    const module = join(dir, "acme.mjs");
    writeFileSync(
      module,
      `export const descriptor = {
  name: "acme", title: "Acme", packages: ["acme-outbox"],
  env: [{ name: "OUTBOX_ACME_API_KEY", field: "apiKey", required: true, secret: true, help: "the key" }],
  target: { description: "a room", example: "r1" },
  capabilities: {},
  createAdapter: async (config) => { throw new Error("login refused for key " + config.apiKey); },
  createEmulatedChannel: async () => { throw new Error("none"); },
};
`,
    );
    const env = { OUTBOX_ACME_API_KEY: secret };

    const cli = await outbox(["send", "acme", "--adapter", module, "--to", "r1", "hello"], { env });
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain("login refused for key");
    expect(cli.stdout + cli.stderr).not.toContain(secret);

    const [acme] = await findAdapterDescriptors({ from: [], adapters: [module] });
    if (acme === undefined) throw new Error("the acme descriptor did not load");
    const mcp = await openOutboxMcp({ descriptors: [acme], env });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "test", version: "0" });
    try {
      await Promise.all([mcp.createServer().connect(serverSide), client.connect(clientSide)]);
      const result = await client.callTool({
        name: "send_message",
        arguments: { platform: "acme", to: "r1", message: "hello" },
      });
      expect(JSON.stringify(result)).toContain("login refused for key");
      expect(JSON.stringify(result)).not.toContain(secret);
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});
