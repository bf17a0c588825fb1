import { stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deliverAgentRun, fromAiSdkStream } from "../../src/index.js";
import { collect, createFakeAdapter, deliveredMedia, deliveredTexts } from "./fake-adapter.js";

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
/** A stream part of the mock model (LanguageModelV3StreamPart), taken from the mock's own types. */
type DoStream = NonNullable<NonNullable<ConstructorParameters<typeof MockLanguageModelV3>[0]>["doStream"]>;
type StreamResult = Awaited<ReturnType<Extract<DoStream, (...args: never[]) => unknown>>>;
type Chunk = StreamResult["stream"] extends ReadableStream<infer Part> ? Part : never;
const text = (id: string, ...deltas: string[]): Chunk[] => [
  { type: "text-start", id },
  ...deltas.map((delta): Chunk => ({ type: "text-delta", id, delta })),
  { type: "text-end", id },
];
const finish = (unified: "stop" | "tool-calls"): Chunk => ({
  type: "finish",
  finishReason: { unified, raw: unified },
  usage,
});

/** A mock model answering each step with the next list of chunks (no network). */
function mockModel(steps: Chunk[][]): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doStream: async () => ({
      stream: simulateReadableStream<Chunk>({ chunks: steps[step++] ?? [finish("stop")] }),
    }),
  });
}

const chartTool = tool({
  description: "draws a chart",
  inputSchema: z.object({ quarter: z.string() }),
  execute: async ({ quarter }) => ({
    text: `chart for ${quarter}\nMEDIA:/w/chart.png`,
    mediaUrls: ["/w/chart.png"],
  }),
});

describe("fromAiSdkStream", () => {
  it("maps a two-step run of the SDK's mock model: text, tool call and result, a file, finish", async () => {
    const model = mockModel([
      [
        { type: "stream-start", warnings: [] },
        ...text("t1", "Let me ", "draw it."),
        {
          type: "tool-call",
          toolCallId: "c1",
          toolName: "chart",
          input: JSON.stringify({ quarter: "Q3" }),
        },
        finish("tool-calls"),
      ],
      [
        ...text("t2", "Here is ", "the chart."),
        { type: "file", mediaType: "image/png", data: "iVBORw0KGgo=" },
        finish("stop"),
      ],
    ]);
    const result = streamText({
      model,
      prompt: "chart",
      tools: { chart: chartTool },
      stopWhen: stepCountIs(3),
    });
    const mapped = await collect(fromAiSdkStream(result.fullStream));
    expect(mapped).toEqual([
      { type: "text", text: "Let me " },
      { type: "text", text: "draw it." },
      { type: "tool_use", toolName: "chart", toolCallId: "c1", input: { quarter: "Q3" } },
      {
        type: "tool_result",
        toolName: "chart",
        toolCallId: "c1",
        text: "chart for Q3\nMEDIA:/w/chart.png",
        media: ["/w/chart.png"],
      },
      { type: "text", text: "\n\n" },
      { type: "text", text: "Here is " },
      { type: "text", text: "the chart." },
      { type: "media", media: { mimeType: "image/png", base64: "iVBORw0KGgo=" } },
      { type: "done" },
    ]);
  });

  it("a stream error part becomes an error event; deliverAgentRun delivers the complete part and reports it", async () => {
    const model = mockModel([
      [...text("t1", "Complete paragraph.\n\nhalf"), { type: "error", error: new Error("provider 529") }],
    ]);
    const result = streamText({ model, prompt: "x", onError: () => undefined });
    const adapter = createFakeAdapter();
    const receipt = await deliverAgentRun(fromAiSdkStream(result.fullStream), adapter, { to: "c" }).receipt;
    expect(deliveredTexts(adapter)).toEqual(["Complete paragraph."]);
    expect(receipt.end).toBe("error");
    expect(receipt.failures.at(-1)?.error.message).toContain("provider 529");
  });

  it("result.textStream passed by mistake is an error naming what was expected, not ok with nothing delivered", async () => {
    const result = streamText({
      model: mockModel([[...text("t1", "Revenue grew."), finish("stop")]]),
      prompt: "x",
    });
    const adapter = createFakeAdapter();
    // textStream yields strings; the types say parts, as a JavaScript caller would not notice.
    const chunks = result.textStream as unknown as AsyncIterable<{ type: string }>;
    const receipt = await deliverAgentRun(fromAiSdkStream(chunks), adapter, { to: "c" }).receipt;
    expect(receipt).toMatchObject({ ok: false, end: "error" });
    expect(receipt.failures.at(-1)?.error.message).toMatch(
      /fromAiSdkStream expected the AI SDK's full stream .* and got a text chunk \("Revenue grew\."\): pass result\.fullStream, not result\.textStream/,
    );
  });

  it("a tool error is a failed tool result, and the whole run delivers once with the tool's media", async () => {
    const failing = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error("disk full");
      },
    });
    const model = mockModel([
      [
        { type: "tool-call", toolCallId: "c1", toolName: "failing", input: "{}" },
        {
          type: "tool-call",
          toolCallId: "c2",
          toolName: "chart",
          input: JSON.stringify({ quarter: "Q4" }),
        },
        finish("tool-calls"),
      ],
      [...text("t2", "Done: see the chart.\nMEDIA:/w/chart.png"), finish("stop")],
    ]);
    const result = streamText({
      model,
      prompt: "x",
      tools: { failing, chart: chartTool },
      stopWhen: stepCountIs(3),
    });
    // Each read of fullStream is its own copy of the run: map it, and deliver it.
    const mapped = collect(fromAiSdkStream(result.fullStream));
    const adapter = createFakeAdapter();
    const receipt = await deliverAgentRun(
      fromAiSdkStream(result.fullStream),
      adapter,
      { to: "c" },
      { mode: "blocks", idleMs: 0 },
    ).receipt;
    expect(await mapped).toContainEqual({
      type: "tool_result",
      toolName: "failing",
      toolCallId: "c1",
      isError: true,
      text: "disk full",
    });
    expect(receipt.ok).toBe(true);
    expect(deliveredTexts(adapter)).toEqual(["Done: see the chart."]);
    expect(deliveredMedia(adapter)).toEqual(["/w/chart.png"]);
  });

  it("reads AI SDK 4 shaped parts too (textDelta, args, result, mimeType)", async () => {
    async function* v4() {
      yield { type: "text-delta", textDelta: "hi" };
      yield { type: "tool-call", toolName: "t", args: { a: 1 } };
      yield { type: "tool-result", toolName: "t", result: "plain" };
      yield { type: "file", file: { mimeType: "image/png", base64: "AA==" } };
      yield { type: "finish" };
      yield { type: "text-delta", textDelta: "after finish" };
    }
    expect(await collect(fromAiSdkStream(v4()))).toEqual([
      { type: "text", text: "hi" },
      { type: "tool_use", toolName: "t", input: { a: 1 } },
      { type: "tool_result", toolName: "t", text: "plain" },
      { type: "media", media: { mimeType: "image/png", base64: "AA==" } },
      { type: "done" },
    ]);
  });
});
