/**
 * A tool result of the MCP channel, as the client sees it: `structuredContent.messages`
 * cuts the blocks into messages; each message decoded into an `ObservedMessage` (text and
 * spans from the Markdown, media from the base64 bytes).
 */
import { createHash } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ObservedMessage } from "@outbox/core";
import { decodeMarkdown } from "@outbox/core/testing";

type Block = CallToolResult["content"][number];

function media(block: Block): Partial<ObservedMessage> | undefined {
  let bytes: Buffer;
  let extra: Partial<ObservedMessage>;
  if (block.type === "image") {
    bytes = Buffer.from(block.data, "base64");
    extra = { mimeType: block.mimeType };
  } else if (block.type === "resource") {
    const { resource } = block;
    bytes = "blob" in resource ? Buffer.from(resource.blob, "base64") : Buffer.from(resource.text, "utf8");
    const name = resource.uri.replace(/^attachment:\/\//, "");
    extra = {
      fileName: decodeURIComponent(name),
      ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
    };
  } else return undefined;
  return { ...extra, sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.byteLength };
}

function withText(key: "text" | "caption", block: Block | undefined): Partial<ObservedMessage> {
  if (block?.type !== "text") return {};
  const decoded = decodeMarkdown(block.text);
  const { text, formatting, lines } = decoded;
  return formatting.length > 0 ? { [key]: text, formatting, lines } : { [key]: text, lines };
}

/** Decodes one `take` result into the messages it holds. */
export function decodeChannelResult(result: CallToolResult): ObservedMessage[] {
  const listed = (result.structuredContent?.messages ?? []) as Array<{
    kind: ObservedMessage["kind"];
    blocks: number;
  }>;
  const observed: ObservedMessage[] = [];
  let at = 0;
  for (const { kind, blocks } of listed) {
    const [first, second] = result.content.slice(at, at + blocks);
    at += blocks;
    const carried = first === undefined ? undefined : media(first);
    observed.push(
      carried === undefined
        ? { kind, ...withText("text", first) }
        : { kind, ...carried, ...withText("caption", second) },
    );
  }
  return observed;
}
