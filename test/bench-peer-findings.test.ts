import { describe, expect, it } from "vitest";
import { ASKED, findings } from "../bench/suites/peer-cases.js";

describe("bench peers: what arrived against what was asked", () => {
  it("the long reply is 10,000 characters of numbered sentences ending in a full stop", () => {
    expect(ASKED.long.markdown).toHaveLength(10_000);
    expect(ASKED.long.markdown).toMatch(/^Sentence 1 of the long reply keeps going\. Sentence 2 /);
    expect(ASKED.long.markdown).toMatch(/[^.\s]\.$/);
  });

  it("an intact delivery has no findings, even split over several messages", () => {
    const half = ASKED.long.visible.length / 2;
    const parts = [ASKED.long.visible.slice(0, half), ASKED.long.visible.slice(half)];
    expect(
      findings(
        "telegram",
        ASKED.long,
        parts.map((text) => ({ kind: "text", text })),
      ),
    ).toEqual([]);
  });

  it("reports a truncation with the characters that arrived, and nothing arriving", () => {
    const cut = `${ASKED.long.visible.slice(0, 4000)}...`;
    expect(findings("discord", ASKED.long, [{ kind: "text", text: cut }])).toEqual([
      "text truncated: 4000 of 10000 characters",
    ]);
    expect(findings("discord", ASKED.long, [])).toEqual(["nothing arrived"]);
  });

  it("reports lost formatting, a dropped image and a voice note sent as audio", () => {
    const formatted = { kind: "text" as const, text: ASKED.formatted.visible, formatting: [] };
    expect(findings("slack", ASKED.formatted, [formatted])).toEqual([
      "formatting lost: bold, italic, strike, code, link",
    ]);
    expect(findings("slack", ASKED.imageUrl, [{ kind: "text", text: "Here is the chart." }])).toEqual([
      "image dropped",
    ]);
    const audio = { kind: "audio" as const, caption: "Listen to this." };
    expect(findings("telegram", ASKED.voice, [audio])).toEqual(["voice arrived as audio"]);
    // Slack bots cannot send voice notes: an audio file is all that can be asked there.
    expect(findings("slack", ASKED.voice, [audio])).toEqual([]);
  });

  it("reports a reply that is not linked to the message it answers", () => {
    const text = ASKED.reply.visible;
    expect(findings("discord", ASKED.reply, [{ kind: "text", text }], "77")).toEqual([
      "not linked to the message it answers",
    ]);
    expect(findings("discord", ASKED.reply, [{ kind: "text", text, replyTo: "77" }], "77")).toEqual([]);
  });
});
