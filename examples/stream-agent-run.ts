/**
 * Stream a (mocked) AI SDK model run to the demo's three emulated channels: Telegram, Slack
 * and Discord, each over its real client library to a strict emulator on 127.0.0.1. No
 * network, no model: the AI SDK's own MockLanguageModelV3 plays a two-step run (text, a tool
 * that draws a chart, more text naming the chart). Run it with
 *
 *     npx tsx --conditions=source examples/stream-agent-run.ts
 */
import { fixturePath, fixturesDir } from "@outbox/conformance";
import {
  type AgentRunReceipt,
  deliverAgentRun,
  type EmulatedChannel,
  fromAiSdkStream,
  type ObservedMessage,
  type StreamMode,
} from "@outbox/core";
import { createEmulatedChannel as discord } from "@outbox/discord/testing";
import { createEmulatedChannel as slack } from "@outbox/slack/testing";
import { createEmulatedChannel as telegram } from "@outbox/telegram/testing";
import { stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { z } from "zod";

const chart = fixturePath("png");
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};

/** A mock model: step 1 writes a sentence and calls `drawChart`; step 2 writes the answer naming the chart. */
function mockModel(): MockLanguageModelV3 {
  const steps = [
    [
      { type: "text-start", id: "a" },
      { type: "text-delta", id: "a", delta: "Let me pull the numbers " },
      { type: "text-delta", id: "a", delta: "and draw them." },
      { type: "text-end", id: "a" },
      {
        type: "tool-call",
        toolCallId: "call-1",
        toolName: "drawChart",
        input: JSON.stringify({ quarter: "Q3" }),
      },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ],
    [
      { type: "text-start", id: "b" },
      { type: "text-delta", id: "b", delta: "**Q3 revenue** grew 12%.\n\n" },
      { type: "text-delta", id: "b", delta: "```text\nQ2  1.00\nQ3  1.12\n```\n\n" },
      { type: "text-delta", id: "b", delta: `The chart:\nMEDIA:${chart}\n` },
      { type: "text-end", id: "b" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
    ],
  ] as const;
  let step = 0;
  return new MockLanguageModelV3({
    doStream: async () => ({ stream: simulateReadableStream({ chunks: [...(steps[step++] ?? [])] }) }),
  });
}

/** The tool: "draws" the chart (the fixture PNG) and hands it over as media. */
const drawChart = tool({
  description: "Draw a revenue chart for a quarter",
  inputSchema: z.object({ quarter: z.string() }),
  execute: async ({ quarter }) => ({ text: `chart for ${quarter}`, mediaUrls: [chart] }),
});

/** One channel's outcome. */
export interface ExampleResult {
  /** Platform name. */
  platform: string;
  /** The run's combined receipt. */
  receipt: AgentRunReceipt;
  /** What the channel shows. */
  observed: ObservedMessage[];
}

/** Stream one mocked run to each emulated channel in `mode`; returns what each shows. */
export async function streamToEmulators(mode: StreamMode = "blocks"): Promise<ExampleResult[]> {
  const media = { localRoots: [fixturesDir] };
  const results: ExampleResult[] = [];
  for (const open of [telegram, slack, discord]) {
    const channel: EmulatedChannel = await open({ media });
    try {
      const result = streamText({
        model: mockModel(),
        prompt: "How did Q3 go?",
        tools: { drawChart },
        stopWhen: stepCountIs(3),
      });
      const run = deliverAgentRun(fromAiSdkStream(result.fullStream), channel.adapter, channel.target, {
        mode,
        minChars: 20,
      });
      for await (const progress of run)
        if (progress.type === "delivered") console.log(`${channel.platform}: delivered a ${progress.step}`);
      results.push({ platform: channel.platform, receipt: await run.receipt, observed: channel.observe() });
    } finally {
      await channel.close();
    }
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { platform, receipt, observed } of await streamToEmulators()) {
    console.log(`\n${platform}: ok=${receipt.ok}, ${receipt.messages.length} message(s)`);
    for (const message of observed)
      console.log(`  [${message.kind}] ${(message.text ?? message.caption ?? "").replaceAll("\n", " / ")}`);
  }
}
