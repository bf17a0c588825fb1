/**
 * Tags wherever the agent writes them, on every platform that declares replies, judged by
 * what the emulator recorded: a reply tag first, in the middle, alone in the last event, or
 * split across two deltas, in every mode, as `[[reply_to_current]]` and `[[reply_to:<id>]]`;
 * and `[[audio_as_voice]]` before and after the audio. The run either delivers as a reply
 * (as a voice note) or its receipt names each message that went out before the tag was read.
 */
import { fixturePath } from "@outbox/conformance";
import { type AgentEvent, type AgentRunReceipt, deliverAgentRun, type StreamMode } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { eachChannel, fixturesDir, png, replyPlatforms, textRun, until } from "./channels.js";

const MODES: StreamMode[] = ["final", "blocks", "preview"];

/** Four paragraphs that `blocks` mode (minChars 50) sends as four messages, one per event. */
const PARAGRAPHS = [
  "Revenue grew twelve percent over the third quarter of the year.\n\n",
  "Costs fell by four percent, mostly in logistics and in hosting.\n\n",
  "Margins rose to their best level since the company went public.\n\n",
  "The outlook for the fourth quarter stays cautious but positive.\n\n",
];

/** Where the tag stands: the text events, and the event that completes the tag. */
interface Placement {
  texts: (tag: string) => string[];
  /** Index of the text event that completes the tag. */
  at: number;
  /** Index of the block (`blocks` mode) sent first with the tag read; 4: none, all went before. */
  block: number;
  /** Some text could be shown (a live preview) before the tag is complete. */
  shownBefore: boolean;
}

const PLACEMENTS: Record<string, Placement> = {
  first: {
    texts: (tag) => [`${tag} ${PARAGRAPHS[0]}`, ...PARAGRAPHS.slice(1)],
    at: 0,
    block: 0,
    shownBefore: false,
  },
  // Where models write it, and token by token: `[[reply_` then `to_current]]`.
  "first, split across two deltas": {
    texts: (tag) => [tag.slice(0, 8), `${tag.slice(8)} ${PARAGRAPHS[0]}`, ...PARAGRAPHS.slice(1)],
    at: 1,
    block: 0,
    shownBefore: false,
  },
  middle: {
    texts: (tag) => [...PARAGRAPHS.slice(0, 2), `${tag} ${PARAGRAPHS[2]}`, PARAGRAPHS[3] as string],
    at: 2,
    block: 2,
    shownBefore: true,
  },
  "in the last event alone": {
    texts: (tag) => [...PARAGRAPHS, ` ${tag}`],
    at: 4,
    block: 4,
    shownBefore: true,
  },
  "split across two deltas": {
    texts: (tag) => [...PARAGRAPHS, ` ${tag.slice(0, 8)}`, tag.slice(8)],
    at: 5,
    block: 4,
    shownBefore: true,
  },
};

/** An OGG audio file the agent produced. */
const AUDIO: AgentEvent = { type: "media", media: { mimeType: "audio/ogg", filePath: fixturePath("ogg") } };

describe.each(replyPlatforms)("late reply tags through the %s emulator", (name, open) => {
  const channel = eachChannel(open);
  const current = (): string => channel.target.currentMessageId as string;

  it("declares replies", () => {
    expect(channel.adapter.capabilities.replies, name).toBeTruthy();
  });

  const cases = MODES.flatMap((mode) =>
    Object.keys(PLACEMENTS).flatMap((placement) =>
      ["current", "explicit"].map((tag) => [mode, placement, tag] as const),
    ),
  );
  it.each(cases)(
    "%s: a reply tag %s (%s) replies, or the receipt names what went before it",
    async (mode, where, kind) => {
      const placement = PLACEMENTS[where] as Placement;
      const tag = kind === "current" ? "[[reply_to_current]]" : `[[reply_to:${current()}]]`;
      const capabilities = channel.adapter.capabilities;
      const previews = mode === "preview" && capabilities.edits != null;
      // The preview is on screen before a later tag arrives (the settle must then replace it),
      // or else once the tag is complete: either way before the run settles.
      const shown = placement.shownBefore ? placement.at : placement.at + 1;
      const gate = previews ? { [shown]: () => until(() => channel.observe().length >= 1) } : {};
      const receipt = await channel.settled(
        deliverAgentRun(textRun(placement.texts(tag), gate), channel.adapter, channel.target, {
          mode,
          minChars: 50,
          idleMs: 0,
        }).receipt,
      );
      expect(receipt.ok, JSON.stringify(receipt.failures)).toBe(true);
      const replies = channel.observe().map((message) => message.replyTo);
      if (mode === "final" || previews) {
        expect(replies).toEqual([current()]);
        expect(receipt.degraded).toEqual([]);
        // A preview that waited for an opening tag replies from its first message: nothing to replace.
        if (previews)
          expect(receipt.previewReplaced?.preview).toBe(placement.shownBefore ? "deleted" : undefined);
        return;
      }
      // Blocks (or a preview fallen back to blocks): what went before the tag stays where it is.
      const every = capabilities.replyThreads === true;
      expect(replies).toEqual(
        PARAGRAPHS.map((_, index) =>
          index >= placement.block && (every || index === placement.block) ? current() : undefined,
        ),
      );
      expect(receipt.degraded).toEqual(lateReplies(receipt, placement.block));
    },
  );

  it("blocks, replyMode all: every block from the tag's on replies, the ones before are named", async () => {
    const middle = PLACEMENTS.middle as Placement;
    const receipt = await channel.settled(
      deliverAgentRun(textRun(middle.texts("[[reply_to_current]]")), channel.adapter, channel.target, {
        mode: "blocks",
        minChars: 50,
        idleMs: 0,
        replyMode: "all",
      }).receipt,
    );
    expect(channel.observe().map((message) => message.replyTo)).toEqual(
      PARAGRAPHS.map((_, index) => (index >= middle.block ? current() : undefined)),
    );
    expect(receipt.degraded).toEqual(lateReplies(receipt, middle.block));
  });

  /** Run `events` in `mode` (a function in the list is awaited before the next event); the receipt, checked ok. */
  const runEvents = async (
    mode: StreamMode,
    events: Array<AgentEvent | (() => Promise<void>)>,
  ): Promise<AgentRunReceipt> => {
    async function* replay(): AsyncGenerator<AgentEvent> {
      for (const event of events) {
        if (typeof event === "function") await event();
        else yield event;
      }
    }
    const receipt = await channel.settled(
      deliverAgentRun(replay(), channel.adapter, channel.target, {
        mode,
        minChars: 20,
        idleMs: 0,
        workspaceDir: fixturesDir,
      }).receipt,
    );
    expect(receipt.ok, JSON.stringify(receipt.failures)).toBe(true);
    return receipt;
  };

  it.each(MODES)(
    "%s: a file sent before the reply tag: the reply replies, the receipt names the file",
    async (mode) => {
      const previews = mode === "preview" && channel.adapter.capabilities.edits != null;
      const receipt = await runEvents(mode, [
        { type: "media", media: { mimeType: "image/png", filePath: png.path } },
        { type: "text", text: PARAGRAPHS[0] as string },
        // The preview shows the text before the tag arrives.
        () => (previews ? until(() => channel.observe().length >= 2) : Promise.resolve()),
        { type: "text", text: " [[reply_to_current]]" },
        { type: "done" },
      ]);
      const replies = channel.observe().map((message) => message.replyTo);
      // Final and preview: the text is the reply; blocks: it went before the tag too.
      const late = mode === "final" || previews ? 1 : 2;
      expect(replies).toEqual(late === 1 ? [undefined, current()] : [undefined, undefined]);
      expect(receipt.degraded).toEqual(lateReplies(receipt, late));
    },
  );

  /**
   * A preview run that stops before a paragraph completes: the preview stays on screen as it
   * is. `tagFirst`: the tag is in the first delta (the preview replies); otherwise it comes
   * once the preview is up, then `between` (a file, say), then the stop.
   */
  const stoppedPreview = async (
    stop: "error" | "abort",
    tagFirst: boolean,
    between: AgentEvent[] = [],
  ): Promise<AgentRunReceipt> => {
    const controller = new AbortController();
    const previews = channel.adapter.capabilities.edits != null;
    // On a line of its own: a line still being written that holds a tag is not previewed.
    const tag = "[[reply_to_current]]\n";
    async function* events(): AsyncGenerator<AgentEvent> {
      yield { type: "text", text: `${tagFirst ? tag : ""}The answer is forty-two, ` };
      if (previews) await until(() => channel.observe().length >= 1);
      yield { type: "text", text: `${tagFirst ? "" : tag}because six times seven makes it.` };
      yield* between;
      if (stop === "error") yield { type: "error", error: new Error("model connection lost") };
      controller.abort();
      yield { type: "done" };
    }
    return deliverAgentRun(events(), channel.adapter, channel.target, {
      mode: "preview",
      // After its first text the preview changes only when told (the clock never moves here):
      // it shows the text before the tag.
      previewIntervalMs: 600_000,
      idleMs: 0,
      workspaceDir: fixturesDir,
      signal: controller.signal,
    }).receipt;
  };

  it.each(["error", "abort"] as const)(
    "preview: a reply tag read after the preview went up, then %s: the preview left on screen is named",
    async (stop) => {
      const receipt = await stoppedPreview(stop, false);
      expect(receipt.end).toBe(stop === "error" ? "error" : "aborted");
      const replies = channel.observe().map((message) => message.replyTo);
      // Without edits the run is in blocks, which sends no unfinished paragraph.
      const previews = channel.adapter.capabilities.edits != null;
      expect(replies).toEqual(previews ? [undefined] : []);
      expect(receipt.degraded).toEqual(lateReplies(receipt, previews ? 1 : 0));
    },
  );

  it.each(["error", "abort"] as const)(
    "preview: a reply tag in the first delta, then %s: the preview left on screen replies, nothing named",
    async (stop) => {
      const receipt = await stoppedPreview(stop, true);
      const previews = channel.adapter.capabilities.edits != null;
      expect(channel.observe().map((message) => message.replyTo)).toEqual(previews ? [current()] : []);
      expect(receipt.degraded).toEqual([]);
    },
  );

  it("preview: a file carries the reply tag read after the preview went up; the preview left on an error is named", async () => {
    const image: AgentEvent = { type: "media", media: { mimeType: "image/png", filePath: png.path } };
    const receipt = await stoppedPreview("error", false, [image]);
    const observed = channel.observe().map((message) => [message.kind, message.replyTo]);
    if (channel.adapter.capabilities.edits == null) {
      // Blocks: the file event sends the text held back, tag and all, as the reply.
      expect(observed).toEqual([
        ["text", current()],
        ["image", channel.adapter.capabilities.replyThreads ? current() : undefined],
      ]);
      expect(receipt.degraded).toEqual([]);
      return;
    }
    expect(observed).toEqual([
      ["text", undefined],
      ["image", current()],
    ]);
    const preview = receipt.messages.find((message) => message.kind === "text");
    expect(receipt.degraded).toEqual([
      {
        part: preview?.part,
        from: "reply",
        to: "none",
        reason: expect.stringContaining(
          `message ${preview?.id} went out before the agent wrote its reply tag`,
        ),
      },
    ]);
  });

  /** The voice tag after the audio: alone in the last event, or split across the last two. */
  const voiceTags: Record<string, string[]> = {
    "in the last event alone": [" [[audio_as_voice]]"],
    "split across two deltas": [" [[audio_", "as_voice]]"],
  };
  it.each(MODES.flatMap((mode) => Object.keys(voiceTags).map((where) => [mode, where] as const)))(
    "%s: [[audio_as_voice]] %s after the audio went: the receipt names the audio message",
    async (mode, where) => {
      const receipt = await runEvents(mode, [
        AUDIO,
        { type: "text", text: "Here is the recording you asked for, read aloud.\n\n" },
        ...(voiceTags[where] ?? []).map((text): AgentEvent => ({ type: "text", text })),
        { type: "done" },
      ]);
      expect(channel.observe().map((message) => message.kind)).toEqual(["audio", "text"]);
      const audio = receipt.messages.find((message) => message.kind === "audio");
      expect(audio).toBeDefined();
      expect(receipt.degraded).toContainEqual({
        part: audio?.part,
        from: "voice",
        to: "audio",
        reason: expect.stringContaining(`message ${audio?.id} went out as an audio file before`),
      });
    },
  );

  it.each(MODES)(
    "%s: [[audio_as_voice]] written before a later audio makes it a voice note",
    async (mode) => {
      const receipt = await runEvents(mode, [
        { type: "text", text: "[[audio_as_voice]] Here is the recording you asked for.\n\n" },
        AUDIO,
        { type: "done" },
      ]);
      const native = channel.adapter.capabilities.voice.mode === "native";
      expect(channel.observe().map((message) => message.kind)).toContain(native ? "voice" : "audio");
      expect(receipt.degraded.filter((entry) => /before the agent wrote/.test(entry.reason))).toEqual([]);
    },
  );
});

/** The `reply` degradations naming each of the first `count` messages, sent before the tag. */
function lateReplies(receipt: AgentRunReceipt, count: number): unknown[] {
  return receipt.messages.slice(0, count).map((message) => ({
    part: message.part,
    from: "reply",
    to: "none",
    reason: expect.stringContaining(`message ${message.id} went out before the agent wrote its reply tag`),
  }));
}
