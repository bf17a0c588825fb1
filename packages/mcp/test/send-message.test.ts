import { readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { fixtureBytes, fixtureSha256 } from "@outbox/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findMcpAdapters, type OutboxMcp, openOutboxMcp } from "../src/index.js";
import { type ConnectedMcp, connectMcp } from "./support/connect.js";
import { referencePlatform } from "./support/reference-platform.js";

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString("base64");
const png = { data: b64(fixtureBytes("png")), mimeType: "image/png", name: "chart.png" };
const pdf = { data: b64(fixtureBytes("pdf")), mimeType: "application/pdf", name: "report.pdf" };
const reference = referencePlatform();
/** A one-entry ZIP archive. */
const zip = b64(Buffer.from("504b0304140000000000000000000000000000000000000000000100000061", "hex"));

let mcp: ConnectedMcp;
let outbox: OutboxMcp;
let client: Client;

beforeAll(async () => {
  mcp = await connectMcp({
    emulator: true,
    descriptors: [...(await findMcpAdapters()), reference.descriptor],
  });
  ({ outbox, client } = mcp);
});
afterAll(() => mcp.close());

const call = (args: Record<string, unknown>): Promise<CallToolResult> => mcp.send(args);
const text = (result: CallToolResult): string =>
  result.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
const telegram = () => {
  const channel = outbox.pool.emulated.get("telegram");
  if (channel === undefined) throw new Error("no telegram emulator");
  return channel;
};

describe("send_message over an in-memory MCP client", () => {
  it("lists the tool and tells the client the emulator targets", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["send_message"]);
    const [tool] = tools;
    expect(tool?.inputSchema).toMatchObject({
      additionalProperties: false,
      properties: {
        platform: {
          enum: ["discord", "googlechat", "matrix", "slack", "teams", "telegram", "whatsapp", "reference"],
        },
        images: { maxItems: 10 },
        files: { maxItems: 5 },
      },
    });
    expect(tool?.outputSchema?.properties).toHaveProperty("ok");
    expect(tool?.outputSchema?.properties).toHaveProperty("failures");
    expect(tool?.outputSchema?.properties?.failures).toMatchObject({
      items: { required: expect.arrayContaining(["part", "code", "message", "ambiguous", "retryable"]) },
    });
    expect(Object.keys(Object(Object(tool?.outputSchema?.properties?.failures).items).properties)).toEqual([
      "part",
      "code",
      "message",
      "content",
      "ambiguous",
      "retryable",
      "action",
    ]);
    expect(client.getInstructions()).toContain(
      'telegram delivers to an emulator on 127.0.0.1; send to to="4242"',
    );
  });

  it("delivers text and an image to Telegram and returns the receipt", async () => {
    const before = telegram().observe().length;
    const result = await call({
      platform: "telegram",
      to: "4242",
      message: "**Build** passed",
      images: [png],
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      ok: true,
      platform: "telegram",
      to: "4242",
      failures: [],
    });
    expect(text(result)).toMatch(/^\d message\(s\) delivered to telegram:4242\.$/);
    const observed = telegram().observe().slice(before);
    expect(observed.map((m) => m.kind)).toEqual(["image"]);
    expect(observed[0]?.caption).toBe("Build passed");
    expect(observed[0]?.sha256).toBe(fixtureSha256("png"));
    expect(readdirSync(outbox.mediaDir), "temp files removed").toEqual([]);
  });

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      "unknown platform",
      { platform: "myspace", message: "x" },
      /expected one of "discord"\|"googlechat"\|"matrix"\|"slack"\|"teams"\|"telegram"\|"whatsapp"\|"reference" at platform/,
    ],
    ["invalid base64", { images: [{ ...png, data: "%%%" }] }, /images\[0\]\.data: is not valid base64/],
    [
      "wrong MIME",
      { files: [{ ...png, mimeType: "application/x-sh" }] },
      /files\[0\]\.mimeType: application\/x-sh is not accepted/,
    ],
    [
      "bytes contradicting the MIME",
      { files: [{ ...png, mimeType: "application/pdf" }] },
      /media_unsupported.*files\[0\]/,
    ],
    [
      "too many files",
      { files: new Array(6).fill({ ...png, mimeType: "image/png" }) },
      /expected array to have <=5 items at files/,
    ],
    ["an unknown argument (a typo: image for images)", { image: [png] }, /Unrecognized key: "image"/],
    [
      "ZIP bytes declared as a PDF",
      { files: [{ data: zip, mimeType: "application/pdf" }] },
      /files\[0\] \(file-1\.pdf\) was declared as application\/pdf but its bytes are application\/zip/,
    ],
    [
      "ZIP bytes declared as JSON",
      { files: [{ data: zip, mimeType: "application/json", name: "data.json" }] },
      /files\[0\] \(data\.json\) was declared as application\/json but its bytes are application\/zip/,
    ],
    [
      "PNG bytes declared as plain text",
      { files: [{ ...png, mimeType: "text/plain" }] },
      /was declared as text\/plain but its bytes are image\/png/,
    ],
    ["an empty message with no media", { message: " " }, /Nothing to send: the message is empty/],
    ["eleven images", { images: new Array(11).fill(png) }, /expected array to have <=10 items at images/],
    [
      "oversized",
      { files: [{ data: "A".repeat(21 * 1024 * 1024), mimeType: "text/plain" }] },
      /files\[0\]\.data: decodes to \d+ bytes; the limit is 15728640 bytes/,
    ],
  ];
  for (const [name, args, reason] of bad) {
    it(`refuses ${name} as a tool error, delivering nothing and leaving no temp file`, async () => {
      const before = telegram().observe().length;
      const result = await call({ platform: "telegram", to: "4242", message: "never sent", ...args });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(reason);
      expect(telegram().observe().length).toBe(before);
      expect(readdirSync(outbox.mediaDir)).toEqual([]);
      expect(JSON.stringify(result)).not.toContain(outbox.mediaDir);
    });
  }

  it("a tarball declared application/x-compressed-tar (gzip bytes) is accepted, keeping its name", async () => {
    const result = await call({
      platform: "telegram",
      to: "4242",
      message: "backup",
      files: [
        { data: b64(gzipSync("tar bytes")), mimeType: "application/x-compressed-tar", name: "site.tar.gz" },
      ],
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(telegram().observe().at(-1)).toMatchObject({ kind: "document", fileName: "site.tar.gz" });
  });

  it("no tool result shows a server path: a refused MEDIA: line names no media directory", async () => {
    const result = await call({ platform: "telegram", to: "4242", message: "x\nMEDIA:/etc/passwd" });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain(outbox.mediaDir);
    expect(text(result)).toContain("outside the allowed directories (<media directory>)");
  });

  it.each(["slack", "discord"])("delivers to %s's emulator too", async (name) => {
    const channel = outbox.pool.emulated.get(name);
    expect(client.getInstructions()).toContain(
      `${name} delivers to an emulator on 127.0.0.1; send to to="${channel?.target.to}"`,
    );
    const result = await call({
      platform: name,
      to: channel?.target.to,
      message: "_shipped_",
      files: [pdf],
    });
    expect(result.structuredContent).toMatchObject({ ok: true, platform: name });
    const observed = channel?.observe() ?? [];
    expect(
      observed
        .flatMap((m) => (m.kind === "album" ? (m.items ?? []) : [m]))
        .some((m) => m.sha256 === fixtureSha256("pdf")),
    ).toBe(true);
    expect(JSON.stringify(observed)).toContain("shipped");
  });

  it("a missing adapter package is a tool error naming what to install", async () => {
    const { descriptor } = referencePlatform();
    const absent = await openOutboxMcp({
      descriptors: [
        {
          ...descriptor,
          name: "discord",
          packages: ["@outbox/discord", "discord.js"],
          createAdapter: async () => {
            throw Object.assign(new Error("Cannot find package '@outbox/discord'"), {
              code: "ERR_MODULE_NOT_FOUND",
            });
          },
        },
      ],
      env: { OUTBOX_REFERENCE_TOKEN: "t" },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const other = new Client({ name: "test", version: "0" });
    await Promise.all([absent.createServer().connect(serverSide), other.connect(clientSide)]);
    const result = CallToolResultSchema.parse(
      await other.callTool({
        name: "send_message",
        arguments: { platform: "discord", to: "x", message: "x" },
      }),
    );
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Platform discord needs @outbox\/discord discord\.js/);
    await other.close();
    await absent.close();
  });

  it("a part the platform refuses is a tool error whose receipt says what was and was not delivered", async () => {
    reference.emulator.inject({ kind: "reject", description: "Bad Request: refused once" });
    const result = await call({
      platform: "reference",
      to: reference.chat,
      message: "caption",
      images: [png, png],
    });
    expect(result.isError).toBe(true);
    const receipt = result.structuredContent as {
      ok: boolean;
      messages: unknown[];
      failures: Array<{ part: number; message: string }>;
    };
    expect(receipt.ok).toBe(false);
    expect(receipt.failures.map((f) => f.part)).toEqual([0]);
    expect(receipt.failures[0]?.message).toContain("refused once");
    // What the part held, whether it may have gone, whether a resend is safe, what to do:
    // the fields core's receipt carries, in the structured result, no server path in them.
    expect(receipt.failures[0]).toMatchObject({
      code: "platform_error",
      content: "image images[0] (chart.png)",
      ambiguous: false,
      retryable: false,
      action: expect.stringMatching(/^the platform refused this part \(400\)/),
    });
    expect(JSON.stringify(receipt)).not.toContain(outbox.mediaDir);
    expect(receipt.messages.length).toBe(reference.emulator.observe().length);
    expect(text(result)).toMatch(
      /part\(s\) NOT delivered \(part 0: .*refused once\)\. To do: the platform refused this part/,
    );
    expect(readdirSync(outbox.mediaDir)).toEqual([]);
  });

  it("a repeat with the same idempotencyKey sends only what failed: the image, not the text again", async () => {
    const before = reference.emulator.observe().length;
    // Longer than a caption: the text goes as its own message, then the image.
    const message = `Quarterly report. ${"The figures are in the chart below. ".repeat(8)}`;
    const args = {
      platform: "reference",
      to: reference.chat,
      message,
      images: [png],
      idempotencyKey: "turn-7",
    };
    // The image is refused with a wait longer than the server waits: certainly not delivered.
    reference.emulator.inject({ kind: "rate-limit", retryAfterMs: 120_000, method: "sendMedia" });
    const first = await call(args);
    expect(first.isError).toBe(true);
    const failure = (first.structuredContent as { failures: Array<Record<string, unknown>> }).failures[0];
    expect(failure).toMatchObject({ part: 1, code: "rate_limited", retryable: true, ambiguous: false });
    expect(failure?.action).toMatch(/call send_message again with the same arguments and idempotencyKey/);
    expect(
      reference.emulator
        .observe()
        .slice(before)
        .map((m) => m.kind),
    ).toEqual(["text"]);

    const second = await call(args);
    expect(second.isError).toBeFalsy();
    expect(second.structuredContent).toMatchObject({ ok: true, failures: [] });
    // The text once, the image once: the repeat sent only the image.
    expect(
      reference.emulator
        .observe()
        .slice(before)
        .map((m) => m.kind),
    ).toEqual(["text", "image"]);
    expect(readdirSync(outbox.mediaDir)).toEqual([]);
  });

  it('settles an ambiguous part: ambiguous "delivered" sends nothing, and without a key no advice names one', async () => {
    const before = reference.emulator.observe().length;
    const args = {
      platform: "reference",
      to: reference.chat,
      message: "status: green",
      idempotencyKey: "turn-8",
    };
    reference.emulator.inject({ kind: "reset-after-processed", method: "sendText" });
    const first = await call(args);
    const failure = (first.structuredContent as { failures: Array<Record<string, unknown>> }).failures[0];
    expect(failure).toMatchObject({ ambiguous: true });
    expect(failure?.action).toMatch(
      /same arguments and idempotencyKey, and ambiguous "delivered" .* "resend"/,
    );
    expect(reference.emulator.observe().slice(before)).toHaveLength(1);
    const settled = await call({ ...args, ambiguous: "delivered" });
    expect(settled.structuredContent).toMatchObject({ ok: true, failures: [] });
    expect(reference.emulator.observe().slice(before)).toHaveLength(1);

    reference.emulator.inject({ kind: "reset-after-processed", method: "sendText" });
    const unkeyed = await call({ platform: "reference", to: reference.chat, message: "status: amber" });
    const entry = (unkeyed.structuredContent as { failures: Array<{ action: string }> }).failures[0];
    expect(entry?.action).toMatch(
      /before sending this part again on its own \(this call had no idempotencyKey\)/,
    );
    expect(text(unkeyed)).not.toMatch(/same idempotencyKey|retry\.|target\.|replyToId/);
  });

  it("an unconfigured platform names the variable to set, and a token never appears in the result", async () => {
    const { descriptor } = referencePlatform();
    const real = await openOutboxMcp({ descriptors: [descriptor], env: {} });
    const configured = await openOutboxMcp({
      descriptors: [
        {
          ...descriptor,
          createAdapter: async () => {
            throw new Error("login failed for secret-token-123456");
          },
        },
      ],
      env: { OUTBOX_REFERENCE_TOKEN: "secret-token-123456" },
    });
    try {
      for (const [server, expected] of [
        [real, /OUTBOX_REFERENCE_TOKEN/],
        [configured, /login failed for \[redacted\]/],
      ] as const) {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        const other = new Client({ name: "test", version: "0" });
        await Promise.all([server.createServer().connect(serverSide), other.connect(clientSide)]);
        const result = CallToolResultSchema.parse(
          await other.callTool({
            name: "send_message",
            arguments: { platform: "reference", to: "x", message: "x" },
          }),
        );
        expect(result.isError).toBe(true);
        expect(text(result)).toMatch(expected);
        expect(JSON.stringify(result)).not.toContain("secret-token-123456");
        await other.close();
      }
    } finally {
      await real.close();
      await configured.close();
    }
  });
});
