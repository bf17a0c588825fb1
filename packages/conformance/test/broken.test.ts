/**
 * The suite has teeth: each deliberately broken variant of the reference adapter fails
 * the cases that describe its bug (run programmatically with `runCase`), while the
 * unbroken reference passes them (reference.test.ts, strict).
 */
import {
  type ChannelAdapter,
  type LivePreview,
  PlatformError,
  RateLimitedError,
  type Renderer,
  type ReplyPayloadInput,
  type Target,
  type Transport,
  TransportError,
} from "@outbox/core";
import type { Nodes } from "mdast";
import { describe, expect, it } from "vitest";
import { brokenRenderers } from "../src/broken-renderers.js";
import { conformanceCases } from "../src/cases/registry.js";
import { runCase } from "../src/describe-conformance.js";
import { DECOY_HOST } from "../src/media-server.js";
import { planCases } from "../src/plan-cases.js";
import { referenceCapabilities } from "../src/reference/capabilities.js";
import { createReferenceHarness, type ReferenceHarnessOptions } from "../src/reference/harness.js";
import type { ConformanceCase, ConformanceHarness } from "../src/types.js";

/** Wrap `send` of an adapter, keeping everything else. */
function wrapSend(adapter: ChannelAdapter, send: ChannelAdapter["send"]): ChannelAdapter {
  return {
    name: adapter.name,
    capabilities: adapter.capabilities,
    send,
    close: () => adapter.close?.() ?? Promise.resolve(),
  };
}

/** Wrap `preview` of an adapter, keeping everything else (its `send` included). */
function wrapPreview(
  adapter: ChannelAdapter,
  wrap: (preview: LivePreview, target: Target) => LivePreview,
): ChannelAdapter {
  const preview = adapter.preview as NonNullable<ChannelAdapter["preview"]>;
  return {
    ...wrapSend(adapter, adapter.send),
    preview: (target, options) => wrap(preview(target, options), target),
  };
}

/** A transport whose `sendMedia`/`sendAlbum` rewrite the operation first. */
function rewriteMedia(
  rewrite: <T extends { replyTo?: string; thread?: string }>(op: T, type: "media" | "album") => T,
): (t: Transport) => Transport {
  return (t) => ({
    ...t,
    sendMedia: (op) => t.sendMedia(rewrite(op, "media")),
    sendAlbum: (op) => (t.sendAlbum as NonNullable<Transport["sendAlbum"]>)(rewrite(op, "album")),
  });
}

/** A receipt that claims everything went out. */
const EMPTY_RECEIPT = { ok: true, messages: [], failures: [], degraded: [] };

/** The reference markup of plain text: escaped, no tags. */
const escaped = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Reference markup with every link written as the reply wrote it: no untrusted-text policy. */
const rawLinks = (node: Nodes): string => {
  if (node.type === "link")
    return `<a href="${escaped(node.url).replace(/"/g, "&quot;")}">${rawLinks({ type: "paragraph", children: node.children })}</a>`;
  if ("children" in node)
    return node.children.map((child) => rawLinks(child as Nodes)).join(node.type === "root" ? "\n\n" : "");
  return "value" in node ? escaped(node.value) : "";
};

const broken: Array<{ bug: string; options: ReferenceHarnessOptions; caughtBy: Record<string, RegExp> }> = [
  {
    bug: "writes links as the reply wrote them (no untrusted-text policy)",
    options: { renderer: (r) => ({ ...r, render: rawLinks }) },
    caughtBy: {
      "untrusted.lying-links":
        /^link "https:\/\/good.example\/login" → https:\/\/evil.example\/login: its label names another place/,
      "untrusted.bidi":
        /^link "https:\/\/evil.example\/reset\u202egro.elpmaxe.doog" → https:\/\/evil.example\/reset: its label names another place/,
      "untrusted.schemes": /^link "me" → tg:\/\/user\?id=42: a live scheme/,
    },
  },
  {
    bug: "drops the reply reference on media and albums",
    options: {
      transport: rewriteMedia((op) => {
        const { replyTo: _dropped, ...rest } = op;
        return rest as typeof op;
      }),
    },
    caughtBy: {
      "reply.media": /^reply reference of the first message: expected undefined/,
      "reply.album": /^reply reference of the first message: expected undefined/,
      "reply.voice": /^reply reference of the first message: expected undefined/,
    },
  },
  {
    bug: "truncates long text to the limit instead of splitting it",
    options: {
      adapter: (a) =>
        wrapSend(a, (payload, target, options) => {
          const text = (payload as ReplyPayloadInput).text?.slice(0, a.capabilities.text.maxLength);
          return a.send({ ...payload, ...(text === undefined ? {} : { text }) }, target, options);
        }),
    },
    caughtBy: {
      "text.long.split": /^chunks delivered: expected 1 /,
      "text.code.split": /^chunks delivered: expected 1 /,
      "reply.mode.all": /^chunks delivered: expected 1 /,
      "thread.split": /^chunks delivered: expected 1 /,
      "fault.partial.platform": /^later parts delivered: expected 0 /,
      "idempotency.resume": /^every word exactly once/,
    },
  },
  {
    bug: "ignores retry_after: retries a 429 at once, inside the transport",
    options: {
      transport: (t) => ({
        ...t,
        sendText: (op) =>
          t.sendText(op).catch((error: unknown) => {
            if (error instanceof RateLimitedError) return t.sendText(op);
            throw error;
          }),
      }),
    },
    caughtBy: {
      "fault.rate-limit": /^ms waited before the retry/,
    },
  },
  {
    bug: "fetches a blocked URL (allows every host that resolves, the decoy included)",
    options: { media: (policy) => ({ ...policy, allowHosts: [...(policy.allowHosts ?? []), DECOY_HOST] }) },
    caughtBy: {
      "policy.blocked-url": /^connections to the decoy: expected [1-9]/,
      "policy.media-line-url": /^connections to the decoy: expected [1-9]/,
    },
  },
  {
    bug: "sends a voice note as a document without a degraded entry",
    options: {
      transport: (t) => ({
        ...t,
        sendMedia: (op) => t.sendMedia(op.kind === "voice" ? { ...op, kind: "document" } : op),
      }),
    },
    caughtBy: {
      "voice.ogg": /^receipt kinds vs observed kinds/,
      "voice.tag": /^receipt kinds vs observed kinds/,
      "reply.voice": /^receipt kinds vs observed kinds/,
      "thread.voice": /^receipt kinds vs observed kinds/,
    },
  },
  {
    bug: "loses every later part once one part failed (client closed after an error)",
    options: {
      transport: (t) => {
        let failed = false;
        const guard =
          <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
          async (...args: A): Promise<R> => {
            if (failed) throw new TransportError("client closed after an earlier error", { ambiguous: true });
            try {
              return await fn(...args);
            } catch (error) {
              failed = true;
              throw error;
            }
          };
        return {
          sendText: guard(t.sendText.bind(t)),
          sendMedia: guard(t.sendMedia.bind(t)),
          sendAlbum: guard((t.sendAlbum as NonNullable<Transport["sendAlbum"]>).bind(t)),
          editText: guard((t.editText as NonNullable<Transport["editText"]>).bind(t)),
        };
      },
    },
    caughtBy: {
      "fault.partial.platform": /^expected \[ \+0, 1, 2 \] to deeply equal \[ \+0 \]/,
      "idempotency.resume": /^expected \[ \+0, 1, 2 \] to deeply equal \[ \+0 \]/,
      "reply.missing": /^failures: part 0: client closed after an earlier error/,
      "fault.rate-limit": /^failures: part 0: client closed after an earlier error/,
    },
  },
  {
    bug: "delivers twice on a resend (drops the idempotencyKey)",
    options: {
      adapter: (a) =>
        wrapSend(a, (payload, target, options) => {
          const { idempotencyKey: _dropped, ...rest } = options ?? {};
          return a.send(payload, target, rest);
        }),
    },
    caughtBy: {
      "idempotency.repeat": /^nothing delivered again/,
      "idempotency.resume": /^only the failed part is sent again/,
    },
  },
  {
    bug: "receipt disagrees with what was sent (lists messages newest first)",
    options: {
      adapter: (a) =>
        wrapSend(a, async (payload, target, options) => {
          const receipt = await a.send(payload, target, options);
          return { ...receipt, messages: [...receipt.messages].reverse() };
        }),
    },
    caughtBy: {
      "receipt.order": /^receipt kinds vs observed kinds/,
      "receipt.ids": /^receipt kinds vs observed kinds/,
      "album.groups": /^receipt parts in plan order/,
      "fault.partial.load": /^receipt kinds vs observed kinds/,
      "caption.too-long": /^receipt kinds vs observed kinds/,
      "text.long.split": /^receipt parts in plan order/,
    },
  },
  {
    bug: "drops the thread on albums",
    options: {
      transport: rewriteMedia((op, type) => {
        if (type === "media") return op;
        const { thread: _dropped, ...rest } = op;
        return rest as typeof op;
      }),
    },
    caughtBy: {
      "thread.album": /^thread of every message: expected undefined/,
    },
  },
  {
    bug: "renders without escaping (`<` and `&` reach the platform raw)",
    options: { renderer: (r) => ({ ...r, render: (tree) => r.plain(tree) }) },
    caughtBy: {
      "text.special-chars": /^can't parse entities: Unexpected end of name token at byte offset 8/,
    },
  },
  {
    bug: "reads files outside its roots (localRoots: /)",
    options: { media: (policy) => ({ ...policy, localRoots: ["/"] }) },
    caughtBy: {
      "policy.blocked-path": /^one failure per refused reference/,
      "policy.media-line-path": /^receipt.ok with refused references: expected true to be false/,
    },
  },
  {
    bug: "drops captions on single media",
    options: {
      transport: (t) => ({
        ...t,
        sendMedia: (op) => {
          const { caption: _dropped, ...rest } = op;
          return t.sendMedia(rest);
        },
      }),
    },
    caughtBy: {
      "caption.fits": /^caption: expected undefined/,
      "media.image.media-line": /^visible text: expected '' to be 'Here it is'/,
      "text.markdown-image": /^visible text: expected '' to be 'Look now'/,
    },
  },
  {
    bug: "reports a 5xx as delivered",
    options: {
      transport: (t) => ({
        ...t,
        sendText: (op) =>
          t.sendText(op).catch((error: unknown) => {
            if (error instanceof PlatformError && error.status >= 500) return { id: "unknown" };
            throw error;
          }),
      }),
    },
    caughtBy: {
      "fault.server-error": /^receipt.ok after a failure: expected true to be false/,
    },
  },
  {
    bug: "sends everything as plain text (no formatting)",
    options: { renderer: (r) => ({ ...r, render: (tree) => escaped(r.plain(tree)) }) },
    caughtBy: {
      "text.formatting":
        /^bold spans \(what the platform shows as bold\): expected \[\] to deeply equal \[ 'bold' \]/,
      "text.code.split": /^pre spans in chunk \d: expected 0 to be greater than 0/,
      "text.spoiler": /^spoiler spans .*: expected \[\] to deeply equal \[ 'forty-two' \]/,
      "text.quote": /^quote spans .*: expected \[\] to deeply equal \[ 'quoted words here' \]/,
      "caption.fits": /^bold spans .*: expected \[\] to deeply equal \[ 'blue' \]/,
      "album.caption": /^bold spans .*: expected \[\] to deeply equal \[ 'pictures' \]/,
    },
  },
  {
    bug: "treats replyMode off as first",
    options: {
      adapter: (a) =>
        wrapSend(a, (payload, target, options) =>
          a.send(
            payload,
            target,
            options?.replyMode === "off" ? { ...options, replyMode: "first" } : options,
          ),
        ),
    },
    caughtBy: { "reply.mode.off": /^reply references \(none with replyMode off\)/ },
  },
  {
    bug: "does nothing and reports success (no-op adapter)",
    options: { adapter: (a) => wrapSend(a, async () => EMPTY_RECEIPT) },
    caughtBy: {
      "idempotency.repeat": /^message carrying doc.pdf: expected undefined to be defined/,
      "receipt.ids": /^messages the mixed reply arrived as .*: expected 0 to be greater than or equal to 3/,
      "text.plain": /^messages delivered: expected \[\] to have a length of 1/,
    },
  },
  {
    bug: "reorders album items",
    options: {
      transport: (t) => ({
        ...t,
        sendAlbum: (op) =>
          (t.sendAlbum as NonNullable<Transport["sendAlbum"]>)({ ...op, items: [...op.items].reverse() }),
      }),
    },
    caughtBy: {
      "album.split": /^distinct images in the order sent/,
      "album.images": /^media in order: png, jpeg/,
    },
  },
  {
    bug: "hides its degradations (empty degraded list)",
    options: {
      adapter: (a) =>
        wrapSend(a, async (payload, target, options) => ({
          ...(await a.send(payload, target, options)),
          degraded: [],
        })),
    },
    caughtBy: {
      "voice.incompatible": /^degraded entry: expected 0 to be greater than 0/,
      "reply.missing": /^degraded entry for part 0: expected 0 to be greater than 0/,
    },
  },
  {
    bug: "does not pace (built without rateLimits, still declaring them)",
    options: {
      capabilities: { ...referenceCapabilities, rateLimits: [] },
      platform: referenceCapabilities,
      adapter: (a) => ({ ...wrapSend(a, a.send), capabilities: referenceCapabilities }),
    },
    caughtBy: {
      "pacing.concurrent": /^429s the platform answered under its own limits .*: expected [1-9]\d* to be \+0/,
    },
  },
  {
    bug: "resends after a reset without deduplication (the platform had processed the request)",
    options: {
      transport: (t) => ({
        ...t,
        sendText: (op) =>
          t.sendText(op).catch((error: unknown) => {
            if (error instanceof TransportError && error.ambiguous) return t.sendText(op);
            throw error;
          }),
      }),
    },
    caughtBy: {
      "fault.reset":
        /^messages after a reset of a processed request \(a resend is safe only where the platform deduplicates by key: Transport\.deduplicatesByKey\): expected \[ 'Reset after it arrived\.', …\(1\) \] to deeply equal/,
    },
  },
  {
    bug: "under-counts uploads (declares its limit as one request per media send; the platform counts the upload too)",
    options: {
      capabilities: {
        ...referenceCapabilities,
        rateLimits: referenceCapabilities.rateLimits.map(({ requests: _uploads, ...limit }) => limit),
      },
      platform: referenceCapabilities,
    },
    caughtBy: {
      "pacing.media":
        /^429s the platform answered under its own limits to media sends .*: expected [1-9]\d* to be \+0/,
    },
  },
  {
    bug: "edits without a throttle (built with edits every 0 ms, declaring the platform's interval)",
    options: {
      capabilities: { ...referenceCapabilities, edits: { minIntervalMs: 0 } },
      platform: referenceCapabilities,
      adapter: (a) => ({ ...wrapPreview(a, (p) => p), capabilities: referenceCapabilities }),
    },
    caughtBy: {
      "edits.progressive":
        /^429s the platform answered under its own limits \(edits too fast\): expected [1-9]\d* to be \+0/,
    },
  },
  {
    bug: "settle sends the reply as new messages and leaves the preview behind",
    options: {
      adapter: (a) =>
        wrapPreview(a, (preview, target) => ({
          ...preview,
          async settle(payload, options) {
            await preview.cancel();
            return a.send(payload, target, options);
          },
        })),
    },
    caughtBy: {
      "edits.progressive": /^messages after settle vs a plain send of the same payload/,
      "edits.split": /^messages after settle vs a plain send of the same payload/,
      "edits.reply": /^messages after settle vs a plain send of the same payload/,
      "edits.media": /^messages after settle vs a plain send of the same payload/,
    },
  },
  {
    bug: "edits twice (the repeat is refused: message is not modified)",
    options: {
      transport: (t) => {
        const edit = t.editText as NonNullable<Transport["editText"]>;
        return {
          ...t,
          async editText(op) {
            await edit(op);
            return edit(op);
          },
        };
      },
    },
    caughtBy: {
      "edits.progressive":
        /^settle degradations \(an edit refused, or the preview not reused\): part 0: preview → deleted: editing the live preview into the reply failed \(platform_error: editText: 400 message is not modified/,
      "edits.reply":
        /^settle degradations \(an edit refused, or the preview not reused\): part 0: preview → deleted: editing the live preview into the reply failed \(platform_error: editText: 400 message is not modified/,
    },
  },
];

describe("broken adapters fail the suite, each for its reason", () => {
  for (const { bug, options, caughtBy } of broken) {
    describe(bug, () => {
      const harness = createReferenceHarness({ ...options, name: bug });
      it.each(Object.entries(caughtBy))("fails %s", async (id, reason) => {
        const testCase = conformanceCases.find((c) => c.id === id);
        expect(testCase, id).toBeDefined();
        const failure = await runCase(testCase!, harness, { strict: true }).then(
          (verdict) => new Error(`the case did not fail: ${verdict}`),
          (error: unknown) => error,
        );
        expect(String((failure as Error).message ?? failure)).toMatch(reason);
      });
    });
  }
});

describe("broken renderers lose the line structure, and the case meant to catch each fails", () => {
  it.each(brokenRenderers.map((b) => [b.bug, b] as const))("%s", async (_bug, { wrap, caughtBy }) => {
    const harness = createReferenceHarness({ renderer: wrap });
    const testCase = conformanceCases.find((c) => c.id === caughtBy.id) as ConformanceCase;
    await expect(runCase(testCase, harness, { strict: true })).rejects.toThrow(caughtBy.reason);
  });

  it("the unbroken reference renderer passes those cases", async () => {
    const harness = createReferenceHarness();
    for (const { caughtBy } of brokenRenderers) {
      const testCase = conformanceCases.find((c) => c.id === caughtBy.id) as ConformanceCase;
      expect(await runCase(testCase, harness, { strict: true }), caughtBy.id).toBe("passed");
    }
  });
});

describe("combines.textAndFiles: a platform that sends text and files as one message", () => {
  // Captions as long as a text and one album group for every kind: the mixed reply is one message.
  const oneMessage = {
    ...referenceCapabilities,
    caption: { maxLength: referenceCapabilities.text.maxLength },
    album: { minItems: 2, maxItems: 4, groups: [["image", "video", "audio", "document"]] },
  } satisfies typeof referenceCapabilities;
  const receiptCases = conformanceCases.filter((c) => c.id === "receipt.order" || c.id === "receipt.ids");

  it("fails receipt.order and receipt.ids undeclared, saying what to declare", async () => {
    const harness = createReferenceHarness({ capabilities: oneMessage });
    for (const testCase of receiptCases)
      await expect(runCase(testCase, harness, { strict: true }), testCase.id).rejects.toThrow(
        /^messages the mixed reply arrived as .*declares `harness\.combines\.textAndFiles`.*: expected 1 to be greater than or equal to 3\n\n[\s\S]*\nA platform that differs: .*`harness\.combines\.textAndFiles` with the reason/,
      );
  });

  it("passes them once declared, and a reasonless declaration fails the run", async () => {
    const harness = createReferenceHarness({
      capabilities: oneMessage,
      combines: { textAndFiles: "a post carries its text and its files" },
    });
    for (const testCase of receiptCases)
      expect(await runCase(testCase, harness, { strict: true }), testCase.id).toBe("passed");
    const reasonless = planCases(createReferenceHarness({ combines: { textAndFiles: " " } }));
    expect(reasonless[0]).toMatchObject({
      mode: "fail",
      name: "harness.combines gives no reason: textAndFiles",
    });
  });
});

describe("a harness that cannot count the platform's refusals", () => {
  const reference = createReferenceHarness();
  const blind: ConformanceHarness = {
    name: "reference without rateLimitRefusals",
    async setup() {
      const { rateLimitRefusals: _hidden, ...instance } = await reference.setup();
      return instance;
    },
  };
  const pacing = conformanceCases.find((c) => c.id === "pacing.concurrent") as ConformanceCase;

  it("fails pacing.concurrent in strict mode, naming what is missing", async () => {
    await expect(runCase(pacing, blind, { strict: true })).rejects.toThrow(
      /^strict mode: pacing.concurrent needs the harness's rateLimitRefusals\(\)/,
    );
  });

  it("is reported skipped, with that reason, outside strict mode", async () => {
    const skipped: string[] = [];
    const verdict = await runCase(pacing, blind, { onSkip: (label) => skipped.push(label) });
    expect(verdict).toMatch(/^skipped: pacing.concurrent needs the harness's rateLimitRefusals\(\)/);
    expect(skipped).toEqual([verdict]);
  });
});

describe("replies.unknownTarget: a platform that delivers a reply to an unknown message", () => {
  const ignoring = { ...referenceCapabilities, replies: { unknownTarget: "ignored" as const } };
  const missing = conformanceCases.find((c) => c.id === "reply.missing") as ConformanceCase;

  it("fails reply.missing, saying what was expected, when the adapter declares the platform refuses one", async () => {
    const harness = createReferenceHarness({ platform: ignoring });
    await expect(runCase(missing, harness, { strict: true })).rejects.toThrow(
      /^reply reference \(the platform is declared to refuse a reply to unknown message 404404404, so the reply goes out without it; declare replies.unknownTarget "ignored" if it delivers one\): expected '404404404' to be undefined/,
    );
  });

  it("passes it when the adapter declares unknownTarget: ignored", async () => {
    const harness = createReferenceHarness({ capabilities: ignoring });
    expect(await runCase(missing, harness, { strict: true })).toBe("passed");
  });
});

describe("edits.maxLength: a platform whose edits carry less than a new message", () => {
  const limited = {
    ...referenceCapabilities,
    edits: { minIntervalMs: 100, maxLength: referenceCapabilities.text.maxLength / 2 },
  };
  const atLimit = conformanceCases.find((c) => c.id === "edits.at-limit") as ConformanceCase;

  it("fails edits.at-limit, on the refused edit, when the adapter does not declare the edit limit", async () => {
    const harness = createReferenceHarness({ platform: limited });
    await expect(runCase(atLimit, harness, { strict: true })).rejects.toThrow(
      /^settle degradations \(an edit refused, or the preview not reused\): part 0: preview → deleted: editing the live preview into the reply failed \(platform_error: editText: 400 edited message is too long/,
    );
  });

  it("passes it when the adapter declares edits.maxLength (the preview is replaced)", async () => {
    const harness = createReferenceHarness({ capabilities: limited });
    expect(await runCase(atLimit, harness, { strict: true })).toBe("passed");
  });
});

describe("formatGaps: a platform without spoilers", () => {
  // Renders `||x||` as italic x, as the renderer of a platform without spoilers might.
  const noSpoilers = (r: Renderer): Renderer => ({
    ...r,
    render: (tree) =>
      r.render(JSON.parse(JSON.stringify(tree).replaceAll('"type":"spoiler"', '"type":"emphasis"'))),
  });
  const spoiler = conformanceCases.find((c) => c.id === "text.spoiler") as ConformanceCase;

  it("fails text.spoiler when the gap is not declared", async () => {
    const harness = createReferenceHarness({ renderer: noSpoilers });
    await expect(runCase(spoiler, harness, { strict: true })).rejects.toThrow(
      /^spoiler spans .*: expected \[\] to deeply equal \[ 'forty-two' \]/,
    );
  });

  it("passes it, on the plain words, when the harness declares the gap", async () => {
    const harness = createReferenceHarness({
      renderer: noSpoilers,
      formatGaps: { spoiler: "this platform has no spoiler text" },
    });
    expect(await runCase(spoiler, harness, { strict: true })).toBe("passed");
  });
});
