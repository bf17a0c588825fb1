/**
 * docs/streaming.md, "Recipe: one model run to two platforms": one mocked AI SDK run, teed,
 * to the Telegram emulator in preview mode and the Slack emulator in blocks mode, every Slack
 * message in the user's thread.
 */
import { deliverAgentRun, fromAiSdkStream } from "@outbox/core";
import { createEmulatedChannel as slack } from "@outbox/slack/testing";
import { createEmulatedChannel as telegram } from "@outbox/telegram/testing";
import { streamText } from "ai";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { expect, it } from "vitest";

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 9, text: 9, reasoning: undefined },
};
const paragraphs = [
  "Q3 revenue grew 12%.\n\n",
  "Costs fell by 3%, mostly hosting.\n\n",
  "Margins rose to 41%.",
];

it("one model run teed to Telegram (preview) and Slack (blocks, in the user's thread)", async () => {
  const model = new MockLanguageModelV3({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "text-start", id: "t" } as const,
          ...paragraphs.map((delta) => ({ type: "text-delta", id: "t", delta }) as const),
          { type: "text-end", id: "t" } as const,
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage } as const,
        ],
      }),
    }),
  });
  const [onTelegram, onSlack] = await Promise.all([telegram(), slack()]);
  try {
    const result = streamText({ model, prompt: "How did Q3 go?" });
    const [forTelegram, forSlack] = result.fullStream.tee();
    const [toTelegram, toSlack] = await Promise.all([
      deliverAgentRun(
        fromAiSdkStream(forTelegram),
        onTelegram.adapter,
        { to: onTelegram.target.to },
        {
          mode: "preview",
        },
      ).receipt,
      deliverAgentRun(fromAiSdkStream(forSlack), onSlack.adapter, onSlack.target, {
        mode: "blocks",
        replyToCurrent: true,
        minChars: 10,
        idleMs: 0,
      }).receipt,
    ]);
    expect(toTelegram).toMatchObject({ ok: true, mode: "preview" });
    expect(toSlack).toMatchObject({ ok: true, mode: "blocks" });
    const words = paragraphs.map((paragraph) => paragraph.trim());
    expect(onTelegram.observe().map((message) => message.text)).toEqual([words.join("\n\n")]);
    const thread = onSlack.target.currentMessageId;
    expect(onSlack.observe().map((message) => [message.text, message.thread])).toEqual(
      words.map((text) => [text, thread]),
    );
  } finally {
    await Promise.all([onTelegram.close(), onSlack.close()]);
  }
});
