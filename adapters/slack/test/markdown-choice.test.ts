/**
 * The evidence behind docs/adapters/slack.md "mrkdwn or markdown_text": the same replies sent
 * as the adapter's mrkdwn `text` and as `markdown_text` (bare WebClient), and what a Slack
 * client shows for each, as the emulator decodes them.
 */
import type { ObservedMessage } from "@outbox/core";
import { createSlackAdapter } from "@outbox/slack";
import { type SlackEmulator, startSlackEmulator } from "@outbox/slack/testing";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let emulator: SlackEmulator;
beforeAll(async () => {
  emulator = await startSlackEmulator({ channels: [{ id: "C1" }], rateLimits: false });
});
afterAll(() => emulator.close());

/** What Slack shows for one Markdown reply through each path. */
async function both(markdown: string): Promise<{ mrkdwn: ObservedMessage; markdownText: ObservedMessage }> {
  const adapter = createSlackAdapter({ token: emulator.token, slackApiUrl: emulator.slackApiUrl });
  const web = new WebClient(emulator.token, {
    slackApiUrl: emulator.slackApiUrl,
    retryConfig: { retries: 0 },
  });
  await adapter.send({ text: markdown }, { to: "C1" });
  await web.chat.postMessage({ channel: "C1", markdown_text: markdown });
  const [mrkdwn, markdownText] = emulator.observe("C1").slice(-2) as [ObservedMessage, ObservedMessage];
  return { mrkdwn, markdownText };
}

const kinds = (m: ObservedMessage) => (m.formatting ?? []).map((f) => f.kind);

describe("mrkdwn text vs markdown_text, as a Slack client shows them", () => {
  it("headings: bold in both", async () => {
    const { mrkdwn, markdownText } = await both("## Results");
    expect([mrkdwn.text, kinds(mrkdwn)]).toEqual(["Results", ["bold"]]);
    expect([markdownText.text, kinds(markdownText)]).toEqual(["Results", ["bold"]]);
  });

  it("nested lists: bullets and indentation in both", async () => {
    const { mrkdwn, markdownText } = await both("- a\n  - b\n- c");
    expect(mrkdwn.text).toBe("• a\n    • b\n• c");
    expect(markdownText.text).toBe("• a\n    • b\n• c");
  });

  it("tables: neither has them; both show the source rows", async () => {
    const { mrkdwn, markdownText } = await both("| a | b |\n|---|---|\n| 1 | 2 |");
    expect(mrkdwn.text).toContain("| 1 | 2 |");
    expect(markdownText.text).toContain("| 1 | 2 |");
  });

  it("code with a language: a code block in both, the language shown in neither", async () => {
    const { mrkdwn, markdownText } = await both("```ts\nconst x = a < b;\n```");
    expect(mrkdwn.formatting).toEqual([{ kind: "pre", offset: 0, length: 16 }]);
    expect(markdownText.formatting).toEqual([{ kind: "pre", offset: 0, length: 16 }]);
  });

  it("links with parentheses keep their whole target in both", async () => {
    const url = "https://en.wikipedia.org/wiki/Foo_(bar)";
    const { mrkdwn, markdownText } = await both(`[Foo](${url})`);
    expect(mrkdwn.formatting?.[0]?.url).toBe(url);
    expect(markdownText.formatting?.[0]?.url).toBe(url);
  });

  it("`*` and `_` inside words follow Markdown in both (the adapter parses with the same rules)", async () => {
    const { mrkdwn, markdownText } = await both("snake_case_name and 2 * 3");
    expect([mrkdwn.text, mrkdwn.formatting ?? []]).toEqual(["snake_case_name and 2 * 3", []]);
    expect([markdownText.text, markdownText.formatting ?? []]).toEqual(["snake_case_name and 2 * 3", []]);
  });

  it("< & > and mention tokens: shown as typed through mrkdwn; markdown_text hands them to Slack unescaped", async () => {
    const { mrkdwn, markdownText } = await both("a < b && c > d, hey <!channel>");
    expect(mrkdwn.text).toBe("a < b && c > d, hey <!channel>");
    expect(emulator.history("C1").at(-2)?.text).not.toContain("<!channel>");
    expect(emulator.history("C1").at(-1)?.markdown).toContain("<!channel>");
    expect(markdownText.text).toBe("a < b && c > d, hey <!channel>");
  });

  it("markdown_text is refused with text, and past 12,000 characters (mrkdwn text goes to 40,000)", async () => {
    const web = new WebClient(emulator.token, {
      slackApiUrl: emulator.slackApiUrl,
      retryConfig: { retries: 0 },
    });
    const refusal = (args: Parameters<typeof web.chat.postMessage>[0]) =>
      web.chat.postMessage(args).then(
        () => "ok",
        (e: { data?: { error?: string } }) => e.data?.error,
      );
    expect(await refusal({ channel: "C1", markdown_text: "x", text: "x" })).toBe("invalid_arguments");
    expect(await refusal({ channel: "C1", markdown_text: "x".repeat(12_001) })).toBe(
      "markdown_text_too_long",
    );
  });
});
