/**
 * The `outbox-mcp` server: an `McpServer` exposing `send_message`, delivering through a
 * {@link ChannelPool}.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { MCP_MAX_FILES, MCP_MAX_IMAGES } from "../inbound/validate-arguments.js";
import type { ChannelPool } from "./channel-pool.js";
import { sendMessage } from "./send-message.js";

/** Options of {@link createOutboxMcpServer}. */
export interface OutboxMcpServerOptions {
  /** The adapters to deliver through. */
  pool: ChannelPool;
  /** Directory the per-call temp directories are created in; the adapters' only media root. */
  mediaDir: string;
  /** Secrets (tokens) that must never appear in a tool result. */
  secrets?: string[];
  /** Server instructions shown to the client (e.g. the emulator targets). */
  instructions?: string;
}

const mediaItem = z
  .object({
    data: z.string().describe("The bytes, standard base64 (a data: URI prefix is accepted)."),
    mimeType: z.string().describe("The MIME type; checked against the bytes."),
    name: z.string().optional().describe("File name to show."),
  })
  .strict();

/** The structured result: the receipt (`ok`, messages, failures, degraded), or `error` when nothing was attempted. */
const sendMessageOutput = z
  .object({
    ok: z.boolean().describe("Every part delivered."),
    platform: z.string().optional(),
    to: z.string().optional(),
    messages: z.array(z.object({}).loose()).optional().describe("Delivered messages, in order."),
    failures: z
      .array(
        z.object({
          part: z.number(),
          code: z.string(),
          message: z.string(),
          content: z
            .string()
            .optional()
            .describe("What the part held: a text excerpt or the media it carries."),
          ambiguous: z
            .boolean()
            .describe(
              'It may have been delivered anyway: look in the chat, then call again with the same idempotencyKey and ambiguous "delivered" or "resend".',
            ),
          retryable: z
            .boolean()
            .describe(
              "Sending it again is safe and may succeed (with the same idempotencyKey: only what failed goes).",
            ),
          action: z.string().optional().describe("What to do about it."),
        }),
      )
      .optional()
      .describe("Parts not delivered."),
    degraded: z.array(z.object({}).loose()).optional().describe("Parts delivered in a lesser form."),
    error: z
      .object({
        code: z.string(),
        message: z.string(),
        action: z
          .string()
          .describe("What to do about it: change the arguments, or tell the server's operator."),
        issues: z.array(z.unknown()),
      })
      .optional()
      .describe("Why nothing was sent (bad arguments, refused media, an unconfigured platform)."),
  })
  .loose();

/** Replaces every secret in a text with `[redacted]`. */
function redactor(secrets: string[]): (text: string) => string {
  const known = secrets.filter((secret) => secret.length >= 4);
  return (text) => known.reduce((out, secret) => out.split(secret).join("[redacted]"), text);
}

/** Builds the server (not yet connected to a transport). */
export function createOutboxMcpServer(options: OutboxMcpServerOptions): McpServer {
  const server = new McpServer(
    { name: "outbox-mcp", version: "0.1.0" },
    options.instructions === undefined ? {} : { instructions: options.instructions },
  );
  const redact = redactor(options.secrets ?? []);
  const names = options.pool.names as [string, ...string[]];
  server.registerTool(
    "send_message",
    {
      title: "Send a message",
      description: `Deliver a message (Markdown; images and files as base64) to a chat on ${names.join(", ")}. Returns the delivery receipt: which messages the platform holds, and what failed or was degraded.`,
      // Strict: an unknown argument (a typo such as `image` for `images`) is refused, never dropped.
      inputSchema: z
        .object({
          platform: z.enum(names).describe(`One of: ${names.join(", ")}.`),
          to: z.string().describe("Chat, channel or user id on the platform."),
          thread: z
            .string()
            .optional()
            .describe(
              "Thread or topic id (Telegram topic, Slack thread_ts, Discord thread, Matrix thread root).",
            ),
          replyTo: z.string().optional().describe("Platform id of the message to reply to."),
          message: z
            .string()
            .describe("The message, in Markdown. May be empty only when images or files are sent."),
          images: z
            .array(mediaItem)
            .max(MCP_MAX_IMAGES)
            .optional()
            .describe(`Up to ${MCP_MAX_IMAGES} images: jpeg, png, gif, webp; 15 MB each.`),
          files: z
            .array(mediaItem)
            .max(MCP_MAX_FILES)
            .optional()
            .describe(
              `Up to ${MCP_MAX_FILES} files: pdf, text, markdown, html, csv, json, audio, video, zip/gzip/tar; 15 MB each.`,
            ),
          voice: z.boolean().optional().describe("Send audio as a voice note where the platform has them."),
          idempotencyKey: z
            .string()
            .min(1)
            .max(200)
            .optional()
            .describe(
              "Names this message, so it is delivered once: make one per message you mean to send (a fresh random id, or your turn id plus a counter) and reuse it only to repeat that same call after a failure, with the same arguments: then only what was not delivered is sent again. Another message under a used key is refused. The server remembers keys while it runs.",
            ),
          ambiguous: z
            .enum(["report", "resend", "delivered"])
            .optional()
            .describe(
              'With a repeated idempotencyKey, for the parts that may have been delivered (ambiguous): "delivered" if you saw them in the chat, "resend" if not, "report" (default) to leave them be.',
            ),
        })
        .strict(),
      outputSchema: sendMessageOutput,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args, extra) =>
      sendMessage(args, { pool: options.pool, mediaDir: options.mediaDir, redact, signal: extra.signal }),
  );
  return server;
}
