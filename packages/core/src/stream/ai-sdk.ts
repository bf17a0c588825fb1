/**
 * `fromAiSdkStream`: the Vercel AI SDK's `streamText(...).fullStream` as `AgentEvent`s.
 * Structural types only: core never imports `ai` (an optional peer).
 */
import type { MediaAttachment } from "../payload/types.js";
import type { AgentEvent, AgentMedia, AgentToolResultEvent } from "./agent-event.js";

/** The part of an AI SDK stream part every version has (AI SDK 5 and 6 `TextStreamPart`). */
export interface AiSdkStreamPart {
  /** Part type: `text-delta`, `file`, `tool-call`, `tool-result`, `tool-error`, `finish`, `error`, `abort`, … */
  type: string;
}

/** Options of {@link fromAiSdkStream}. */
export interface FromAiSdkOptions {
  /**
   * Media of a tool's output. Default: the output's own `media` (inline items), `mediaUrls`
   * and `mediaUrl` fields, when it is an object that has them.
   */
  toolMedia?: (output: unknown, toolName: string | undefined) => AgentMedia | undefined;
}

type Fields = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * Map an AI SDK full stream to agent events: `text-delta` → `text` (a paragraph break is
 * inserted where text resumes after a tool step), `file` → `media` (inline base64),
 * `tool-call` → `tool_use`, `tool-result` → `tool_result` (a string output is its text; an
 * object output's `text`, `media`, `mediaUrls`, `mediaUrl` and `audioAsVoice` are read),
 * `tool-error` → `tool_result` with `isError`, `error` and `abort` → `error`, `finish` →
 * `done`. Reasoning, sources and step markers are dropped. A chunk that is not a stream part
 * (a string: `result.textStream` passed by mistake) ends the run with an `error` event
 * naming what was expected, so the run never reports `ok` with nothing delivered.
 */
export async function* fromAiSdkStream(
  fullStream: AsyncIterable<AiSdkStreamPart>,
  options: FromAiSdkOptions = {},
): AsyncGenerator<AgentEvent> {
  let wroteText = false;
  let paused = false;
  for await (const part of fullStream) {
    if (typeof (part as Partial<AiSdkStreamPart> | null)?.type !== "string") {
      yield { type: "error", error: new TypeError(notAPart(part)) };
      return;
    }
    const fields = part as AiSdkStreamPart & Fields;
    switch (part.type) {
      case "text-delta": {
        const text = str(fields.text) ?? str(fields.textDelta) ?? str(fields.delta) ?? "";
        if (text === "") break;
        if (paused && wroteText) yield { type: "text", text: "\n\n" };
        paused = false;
        wroteText = true;
        yield { type: "text", text };
        break;
      }
      case "file": {
        const file = (fields.file ?? {}) as Fields;
        const mimeType = str(file.mediaType) ?? str(file.mimeType) ?? "application/octet-stream";
        const base64 = str(file.base64);
        const data = file.uint8Array instanceof Uint8Array ? file.uint8Array : undefined;
        const media: MediaAttachment =
          base64 !== undefined ? { mimeType, base64 } : { mimeType, ...(data ? { data } : {}) };
        yield { type: "media", media };
        break;
      }
      case "tool-call":
        paused = true;
        yield {
          type: "tool_use",
          toolName: str(fields.toolName) ?? "tool",
          ...(str(fields.toolCallId) ? { toolCallId: str(fields.toolCallId) as string } : {}),
          input: fields.input ?? fields.args,
        };
        break;
      case "tool-result":
        if (fields.preliminary === true) break;
        paused = true;
        yield toolResult(fields, fields.output ?? fields.result, options);
        break;
      case "tool-error":
        paused = true;
        yield { ...toolIds(fields), type: "tool_result", isError: true, text: describe(fields.error) };
        break;
      case "finish-step":
        paused = true;
        break;
      case "error":
        yield { type: "error", error: fields.error };
        return;
      case "abort":
        yield {
          type: "error",
          error: new Error(`the model run was aborted${str(fields.reason) ? `: ${fields.reason}` : ""}`),
        };
        return;
      case "finish":
        yield { type: "done" };
        return;
    }
  }
}

function notAPart(chunk: unknown): string {
  const got =
    typeof chunk === "string"
      ? `a text chunk (${JSON.stringify(chunk.slice(0, 40))})`
      : chunk === null || typeof chunk !== "object"
        ? `a ${chunk === null ? "null" : typeof chunk}`
        : "an object without a string `type`";
  return `fromAiSdkStream expected the AI SDK's full stream (parts with a \`type\`: text-delta, tool-call, tool-result, finish, …) and got ${got}: pass result.fullStream, not result.textStream`;
}

function toolIds(fields: Fields): Pick<AgentToolResultEvent, "toolName" | "toolCallId"> {
  return {
    ...(str(fields.toolName) ? { toolName: str(fields.toolName) as string } : {}),
    ...(str(fields.toolCallId) ? { toolCallId: str(fields.toolCallId) as string } : {}),
  };
}

function toolResult(fields: Fields, output: unknown, options: FromAiSdkOptions): AgentToolResultEvent {
  const event: AgentToolResultEvent = { ...toolIds(fields), type: "tool_result" };
  const media = options.toolMedia ? options.toolMedia(output, event.toolName) : defaultToolMedia(output);
  if (media !== undefined && media.length > 0) event.media = media;
  if (typeof output === "string") event.text = output;
  else if (output !== null && typeof output === "object") {
    const record = output as Fields;
    if (typeof record.text === "string") event.text = record.text;
    if (record.audioAsVoice === true) event.audioAsVoice = true;
  }
  return event;
}

function defaultToolMedia(output: unknown): AgentMedia | undefined {
  if (output === null || typeof output !== "object") return undefined;
  const record = output as Fields;
  const items = Array.isArray(record.media)
    ? record.media.filter((item): item is MediaAttachment => typeof (item as Fields)?.mimeType === "string")
    : [];
  if (items.length > 0) return items;
  const refs = [
    ...(Array.isArray(record.mediaUrls)
      ? record.mediaUrls.filter((ref): ref is string => typeof ref === "string")
      : []),
    ...(typeof record.mediaUrl === "string" ? [record.mediaUrl] : []),
  ];
  return refs.length > 0 ? refs : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
