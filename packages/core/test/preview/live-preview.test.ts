import { describe, expect, it } from "vitest";
import { createAdapter } from "../../src/adapter/create-adapter.js";
import type { LivePreview, TextOperation } from "../../src/adapter/types.js";
import {
  PayloadError,
  PlatformError,
  RateLimitedError,
  TargetNotFoundError,
} from "../../src/errors/errors.js";
import { attach } from "../engine/support/media-bytes.js";
import { testCapabilities } from "../engine/support/recording-transport.js";
import { htmlRenderer } from "../markdown/support/html-renderer.js";
import { previewHarness, rows } from "./support.js";

const to = { to: "chat1" };

function start(h: ReturnType<typeof previewHarness>, options = {}): LivePreview {
  const preview = h.adapter.preview?.(to, options);
  if (preview === undefined) throw new Error("no preview");
  return preview;
}

/** A preview that has sent its first message, showing `text`. */
async function showing(
  h: ReturnType<typeof previewHarness>,
  text: string,
  options = {},
): Promise<LivePreview> {
  const preview = start(h, options);
  preview.update(text);
  await h.clock.advance(0);
  return preview;
}

describe("createAdapter: preview", () => {
  it("is there only with capabilities.edits, and edits need editText", () => {
    const plain = {
      sendText: async () => ({ id: "1" }),
      sendMedia: async () => ({ id: "1" }),
      sendAlbum: async () => ({ id: "1" }),
    };
    const base = { name: "x", renderer: htmlRenderer, transport: plain };
    expect(createAdapter({ ...base, capabilities: testCapabilities() }).preview).toBeUndefined();
    expect(
      createAdapter({ ...base, capabilities: testCapabilities({ edits: null }) }).preview,
    ).toBeUndefined();
    expect(() =>
      createAdapter({ ...base, capabilities: testCapabilities({ edits: { minIntervalMs: 1000 } }) }),
    ).toThrow("Adapter x: capabilities.edits is set but the transport has no editText");
    expect(() =>
      createAdapter({
        ...base,
        capabilities: testCapabilities({ edits: { minIntervalMs: -1 } }),
        transport: { ...plain, editText: async () => ({ id: "1" }) },
      }),
    ).toThrow(/edits.minIntervalMs/);
  });

  it("checks the target and options before anything is sent", () => {
    const h = previewHarness();
    expect(() => h.adapter.preview?.({ to: "" })).toThrow(PayloadError);
    expect(() => h.adapter.preview?.(to, { intervalMs: -5 })).toThrow(/options.intervalMs/);
    expect(() => h.adapter.preview?.(to, { replyToId: " " })).toThrow(/options.replyToId/);
    expect(h.calls).toHaveLength(0);
  });
});

describe("live preview: updates", () => {
  it("sends the first text at once, then edits at most once per interval with only the latest text", async () => {
    const h = previewHarness();
    const preview = await showing(h, "Hel");
    preview.update("Hello");
    preview.update("Hello **wor");
    preview.update("Hello **world**, how");
    await h.clock.advance(999);
    expect(rows(h.calls)).toEqual([["text", 0, "Hel"]]);
    await h.clock.advance(1);
    preview.update("Hello **world**, how are you");
    await h.clock.advance(1000);
    expect(rows(h.calls)).toEqual([
      ["text", 0, "Hel"],
      ["edit", 1000, "Hello <b>world</b>, how"],
      ["edit", 2000, "Hello <b>world</b>, how are you"],
    ]);
  });

  it("keeps options.intervalMs when it is above the platform's minimum", async () => {
    const h = previewHarness({ minIntervalMs: 100 });
    const preview = await showing(h, "a", { intervalMs: 2500 });
    preview.update("ab");
    await h.clock.advance(2499);
    expect(h.calls).toHaveLength(1);
    await h.clock.advance(1);
    expect(rows(h.calls)[1]).toEqual(["edit", 2500, "ab"]);
  });

  it("an edit answered with no budget left holds the chat until the reset, like a send", async () => {
    const h = previewHarness();
    h.behaveEdits((op) =>
      op.type === "edit" ? { id: op.messageId, rateLimit: { remaining: 0, resetAfterMs: 5000 } } : undefined,
    );
    const preview = await showing(h, "Hel");
    preview.update("Hello");
    await h.clock.advance(1000);
    h.behaveEdits(() => undefined);
    preview.update("Hello world");
    await h.clock.advance(4999);
    expect(rows(h.calls)).toEqual([
      ["text", 0, "Hel"],
      ["edit", 1000, "Hello"],
    ]);
    await h.clock.advance(1);
    expect(rows(h.calls)[2]).toEqual(["edit", 6000, "Hello world"]);
  });

  it("never edits to the text already shown", async () => {
    const h = previewHarness();
    const preview = await showing(h, "Same text");
    preview.update("Same text  \n\n");
    await h.clock.advance(5000);
    preview.update("Same text");
    preview.update("Same **text**");
    preview.update("Same text");
    await h.clock.advance(5000);
    expect(rows(h.calls)).toEqual([["text", 0, "Same text"]]);
  });

  it("shows partial Markdown closed: emphasis, inline code, a code fence; directives hidden", async () => {
    const h = previewHarness({ minIntervalMs: 10 });
    const preview = start(h);
    const shown: string[] = [];
    for (const text of [
      "Say **hel",
      "Say **hello** to `npm i",
      "Run:\n\n```sh\nnpm i\n",
      "Here:\nMEDIA: ./a.png\n[[reply_to_current]] done _ok",
    ]) {
      preview.update(text);
      await h.clock.advance(10);
      shown.push(rows(h.calls).at(-1)?.[2] as string);
    }
    expect(shown).toEqual([
      "Say <b>hel</b>",
      "Say <b>hello</b> to <code>npm i</code>",
      'Run:\n\n<pre lang="sh">npm i</pre>',
      "Here:\ndone <i>ok</i>",
    ]);
  });

  it("over the text limit shows the head and an ellipsis, within the limit", async () => {
    const h = previewHarness();
    const preview = start(h);
    const long = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} with **bold** words`).join("\n\n");
    preview.update(long);
    await h.clock.advance(0);
    const first = rows(h.calls)[0]?.[2] as string;
    expect(first.length).toBeLessThanOrEqual(100);
    expect(first.startsWith("Paragraph 0 with <b>bold</b> words")).toBe(true);
    expect(first.endsWith("\n\n…")).toBe(true);
    preview.update(`${long}\n\nmore`);
    await h.clock.advance(5000);
    expect(h.calls).toHaveLength(1);
  });

  it("retries an edit answered 429 after retry_after, through the pacer", async () => {
    const h = previewHarness();
    h.behaveEdits((_op, call) => {
      if (call === 1) throw new RateLimitedError("slow down", 3000);
      return undefined;
    });
    const preview = await showing(h, "one", { replyToId: "in-1" });
    preview.update("two");
    await h.clock.advance(1000);
    preview.update("three");
    await h.clock.advance(3000);
    expect(rows(h.calls)).toEqual([
      ["text", 0, "one"],
      ["edit", 1000, "two"],
      ["edit", 4000, "two"],
    ]);
    expect(h.calls[0]?.op).toMatchObject({ type: "text", replyTo: "in-1" });
    await h.clock.advance(1000);
    expect(rows(h.calls).at(-1)).toEqual(["edit", 5000, "three"]);
  });

  it("posts and edits in the target's thread; updates after settle are ignored", async () => {
    const h = previewHarness();
    const preview = h.adapter.preview?.({ to: "chat1", thread: "t1" }) as LivePreview;
    preview.update("one");
    await h.clock.advance(0);
    preview.update("two");
    await h.clock.advance(1000);
    await h.clock.run(preview.settle({ text: "three" }));
    preview.update("four");
    await h.clock.advance(5000);
    expect(rows(h.calls).map(([, , text]) => text)).toEqual(["one", "two", "three"]);
    for (const { op } of h.calls) expect(op).toMatchObject({ thread: "t1" });
  });

  it("stops editing after a refused edit, and settle still delivers the whole reply", async () => {
    const h = previewHarness();
    h.behaveEdits((op) => {
      if (op.type === "edit")
        throw new PlatformError("Bad Request: message to edit not found", {
          status: 400,
          method: "editMessageText",
          description: "Bad Request: message to edit not found",
        });
      return undefined;
    });
    const preview = await showing(h, "one");
    preview.update("two");
    await h.clock.advance(1000);
    preview.update("three");
    await h.clock.advance(5000);
    expect(rows(h.calls).map(([type]) => type)).toEqual(["text", "edit"]);
    const receipt = await h.clock.run(preview.settle({ text: "Final" }));
    expect(receipt.ok).toBe(true);
    expect(receipt.messages).toEqual([{ id: "m2", kind: "text", part: 0 }]);
    expect(receipt.degraded).toEqual([expect.objectContaining({ part: 0, from: "preview", to: "deleted" })]);
    expect([...h.texts.values()]).toEqual(["Final"]);
  });

  it("cancel stops the updates and keeps the last text; settle afterwards throws", async () => {
    const h = previewHarness();
    const preview = await showing(h, "one");
    preview.update("two");
    await preview.cancel();
    preview.update("three");
    await h.clock.advance(5000);
    expect(rows(h.calls)).toEqual([["text", 0, "one"]]);
    await expect(preview.settle({ text: "x" })).rejects.toThrow(/settle\(\) after cancel\(\)/);
    expect(h.texts.get("m1")).toBe("one");
  });

  it("cancel resolves with what stays on screen: the message, the Markdown it shows, whether only its head", async () => {
    const h = previewHarness();
    const preview = await showing(h, "one **bold**");
    preview.update("one **bold** two");
    expect(await preview.cancel()).toEqual({
      message: { id: "m1", kind: "text", part: 0 },
      markdown: "one **bold**",
      truncated: false,
    });
    const long = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} with **bold** words`).join("\n\n");
    const head = await showing(h, long);
    expect(await head.cancel()).toMatchObject({ markdown: long, truncated: true });
    const silent = start(h);
    expect(await silent.cancel()).toEqual({ markdown: "", truncated: false });
  });

  it("cancel lets a send in flight finish, so the message it leaves on screen is known", async () => {
    const h = previewHarness();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    h.transport.behave(() => held.then(() => undefined));
    const preview = start(h);
    preview.update("one");
    await h.clock.advance(0);
    expect(h.calls).toHaveLength(1);
    const cancelled = preview.cancel();
    release();
    expect(await cancelled).toMatchObject({ message: { id: "m1" }, markdown: "one" });
  });

  it("an aborted signal stops pending edits", async () => {
    const h = previewHarness();
    const control = new AbortController();
    const preview = await showing(h, "one", { signal: control.signal });
    preview.update("two");
    control.abort();
    await h.clock.advance(5000);
    preview.update("three");
    await h.clock.advance(5000);
    expect(rows(h.calls)).toEqual([["text", 0, "one"]]);
  });
});

/** A text written in pieces, with a source for `updateFrom` that counts how often it is read. */
function growingSource() {
  let written = "";
  let builds = 0;
  return {
    write: (piece: string) => {
      written += piece;
    },
    read: (): string => {
      builds += 1;
      return written;
    },
    builds: () => builds,
  };
}

describe("live preview: updateFrom", () => {
  it("asks its source only for the edits that go out: 10,000 updates, one text build per send or edit", async () => {
    const h = previewHarness({ capabilities: { text: { maxLength: 100_000, format: "test-html" } } });
    const preview = start(h);
    const source = growingSource();
    for (let i = 0; i < 10_000; i += 1) {
      source.write(`w${i} `);
      preview.updateFrom?.(source.read);
      if (i % 100 === 99) await h.clock.advance(100);
    }
    await h.clock.advance(1000);
    // One send, then an edit per elapsed second of the 10 virtual seconds.
    expect(h.calls.length).toBeGreaterThanOrEqual(10);
    expect(h.calls.length).toBeLessThanOrEqual(12);
    expect(source.builds()).toBe(h.calls.length);
    expect(rows(h.calls).at(-1)?.[2]).toBe(source.read().trimEnd());
  });

  it("renders at most once per interval while the text shown stays the same (a head over the limit)", async () => {
    const h = previewHarness();
    const preview = start(h);
    const source = growingSource();
    // One update per virtual millisecond, each in its own turn, as deltas arrive: past 100
    // characters the preview shows the same head and ellipsis whatever is written.
    for (let i = 0; i < 3_000; i += 1) {
      source.write(`w${i} `);
      preview.updateFrom?.(source.read);
      await h.clock.advance(1);
    }
    expect(rows(h.calls).map(([type]) => type)).toEqual(["text", "edit"]);
    // One render per interval of the 3 virtual seconds (plus the first), not one per update.
    expect(source.builds()).toBeLessThanOrEqual(5);
  });

  it("a source that throws stops the preview like a failed edit; settle still delivers", async () => {
    const h = previewHarness();
    const preview = await showing(h, "one");
    preview.updateFrom?.(() => {
      throw new Error("source failed");
    });
    await h.clock.advance(1000);
    preview.update("two");
    await h.clock.advance(5000);
    expect(rows(h.calls)).toEqual([["text", 0, "one"]]);
    const receipt = await h.clock.run(preview.settle({ text: "Final" }));
    expect(receipt.ok).toBe(true);
    expect([...h.texts.values()]).toEqual(["Final"]);
  });
});

describe("live preview: settle", () => {
  it("edits the preview into the final text (after the edit interval) and reports its id", async () => {
    const h = previewHarness();
    const preview = await showing(h, "Hello **wor", { replyToId: "in-1" });
    const receipt = await h.clock.run(preview.settle({ text: "Hello **world**." }));
    expect(receipt).toEqual({
      ok: true,
      messages: [{ id: "m1", kind: "text", part: 0 }],
      failures: [],
      degraded: [],
    });
    expect(rows(h.calls)).toEqual([
      ["text", 0, "Hello <b>wor</b>"],
      ["edit", 1000, "Hello <b>world</b>."],
    ]);
  });

  it("makes no edit when the preview already shows the final text", async () => {
    const h = previewHarness();
    const preview = await showing(h, "Done.");
    const receipt = await h.clock.run(preview.settle({ text: "Done." }));
    expect(receipt.messages).toEqual([{ id: "m1", kind: "text", part: 0 }]);
    expect(h.calls).toHaveLength(1);
  });

  it("a long reply: the preview becomes the first chunk, the rest are new messages", async () => {
    const h = previewHarness();
    const long = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} **bold** text that is long enough`).join(
      "\n\n",
    );
    const plain = previewHarness();
    const expected = await plain.clock.run(plain.adapter.send({ text: long }, to));
    const preview = start(h);
    preview.update(long.slice(0, 40));
    await h.clock.advance(0);
    const receipt = await h.clock.run(preview.settle({ text: long }));
    expect(receipt).toEqual(expected);
    expect([...h.texts.values()]).toEqual([...plain.texts.values()]);
    expect(rows(h.calls).map(([type]) => type)).toEqual([
      "text",
      "edit",
      ...expected.messages.slice(1).map(() => "text"),
    ]);
  });

  it("a reply opening with media: the preview is deleted and the media goes as send would send it", async () => {
    const h = previewHarness();
    const preview = await showing(h, "Here is the chart");
    const payload = { text: "Here is the chart", media: [attach.png()] };
    const receipt = await h.clock.run(preview.settle(payload));
    expect(receipt.ok).toBe(true);
    expect(receipt.messages).toEqual([{ id: "m2", kind: "image", part: 0 }]);
    expect(rows(h.calls).map(([type]) => type)).toEqual(["text", "delete", "media"]);
    expect(h.texts.has("m1")).toBe(false);
  });

  it("without deleteMessage, the preview takes the caption's text and the media goes without caption", async () => {
    const h = previewHarness({ delete: false });
    const preview = await showing(h, "Here is");
    const receipt = await h.clock.run(
      preview.settle({ text: "Here is the **chart**", media: [attach.png()] }),
    );
    expect(receipt.ok).toBe(true);
    expect(receipt.messages).toEqual([
      { id: "m1", kind: "text", part: 0 },
      { id: "m2", kind: "image", part: 0 },
    ]);
    expect(receipt.degraded).toEqual([expect.objectContaining({ part: 0, from: "caption", to: "text" })]);
    expect(h.texts.get("m1")).toBe("Here is the <b>chart</b>");
    const media = h.calls.at(-1)?.op;
    expect(media).toMatchObject({ type: "media", kind: "image" });
    expect(media !== undefined && "caption" in media).toBe(false);
  });

  it("replies: the preview carries the reply; the parts after it follow replyMode", async () => {
    const h = previewHarness();
    const preview = await showing(h, "Start", { replyToId: "in-1" });
    const long = Array.from({ length: 4 }, (_, i) => `Paragraph ${i} that is long enough to split`).join(
      "\n\n",
    );
    await h.clock.run(preview.settle({ text: long, replyToId: "in-1" }, { replyMode: "all" }));
    const sends = h.calls
      .filter(({ op }) => op.type === "text")
      .map(({ op }) => (op as TextOperation).replyTo);
    expect(sends.length).toBeGreaterThan(1);
    expect(sends.every((id) => id === "in-1")).toBe(true);
  });

  it("with an idempotencyKey a repeated settle sends nothing more", async () => {
    const h = previewHarness();
    const preview = await showing(h, "Hi");
    const first = await h.clock.run(preview.settle({ text: "Hi there" }, { idempotencyKey: "turn-1" }));
    const again = await h.clock.run(preview.settle({ text: "Hi there" }, { idempotencyKey: "turn-1" }));
    expect(again).toEqual(first);
    expect(rows(h.calls).map(([type]) => type)).toEqual(["text", "edit"]);
  });

  it("settles while the first send is still in flight, without a second message", async () => {
    const h = previewHarness({
      capabilities: { rateLimits: [{ scope: "target", limit: 1, intervalMs: 1000 }] },
    });
    const preview = start(h);
    await h.clock.run(h.adapter.send({ text: "earlier" }, to));
    preview.update("Partial");
    const receipt = await h.clock.run(preview.settle({ text: "Final" }));
    expect(receipt.messages).toEqual([{ id: "m2", kind: "text", part: 0 }]);
    expect(rows(h.calls)).toEqual([
      ["text", 0, "earlier"],
      ["text", 1000, "Partial"],
      ["edit", 2000, "Final"],
    ]);
  });

  it("a preview that never sent settles as a plain send", async () => {
    const h = previewHarness();
    const preview = await showing(h, "  ");
    const receipt = await h.clock.run(preview.settle({ text: "Final" }));
    expect(receipt.messages).toEqual([{ id: "m1", kind: "text", part: 0 }]);
    expect(rows(h.calls)).toEqual([["text", 0, "Final"]]);
  });
});

describe("live preview: its calls are plans the engine runs", () => {
  const SECRET = "preview-secret-0123456789";
  const refused = () =>
    new PlatformError(`Bad Request: token ${SECRET} cannot edit`, {
      status: 400,
      method: "editMessageText",
      description: "Bad Request",
    });

  it("the first send replies like any send: a reply target that is gone, it goes without the reply", async () => {
    const h = previewHarness();
    h.transport.behave((op) => {
      if (op.replyTo !== undefined) throw new TargetNotFoundError("message to reply not found", "reply");
      return undefined;
    });
    await showing(h, "Hello", { replyToId: "gone-1" });
    expect(h.calls.map(({ op }) => [op.type, op.replyTo])).toEqual([
      ["text", "gone-1"],
      ["text", undefined],
    ]);
    expect([...h.texts.values()]).toEqual(["Hello"]);
  });

  it("a refused settle edit: the error in the receipt and in replaced is redacted of the adapter's secrets", async () => {
    const h = previewHarness({ secrets: [SECRET] });
    const preview = await showing(h, "one");
    h.behaveEdits((op) => {
      if (op.type === "edit") throw refused();
      return undefined;
    });
    const receipt = await h.clock.run(preview.settle({ text: "Final" }));
    expect(receipt.ok).toBe(true);
    expect(receipt.degraded).toEqual([
      expect.objectContaining({
        part: 0,
        from: "preview",
        to: "deleted",
        reason: expect.stringContaining("platform_error"),
      }),
    ]);
    expect(preview.replaced).toMatchObject({ preview: "deleted" });
    expect(JSON.stringify([receipt, preview.replaced])).not.toContain(SECRET);
  });

  it("a preview deleted for a reply whose first part then fails: the receipt still says it was deleted", async () => {
    const h = previewHarness();
    const preview = await showing(h, "one");
    h.behaveEdits((op) => {
      if (op.type === "edit") throw refused();
      return undefined;
    });
    h.transport.behave((op) => {
      if (op.type === "text") throw refused();
      return undefined;
    });
    const receipt = await h.clock.run(preview.settle({ text: "Final" }));
    expect(receipt.failures.map((failure) => failure.part)).toEqual([0]);
    expect(receipt.degraded).toEqual([expect.objectContaining({ part: 0, from: "preview", to: "deleted" })]);
  });
});
