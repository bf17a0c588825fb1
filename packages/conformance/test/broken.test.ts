/**
 * The suite has teeth: each deliberately broken variant of the reference adapter fails
 * the cases that describe its bug (run programmatically with `runCase`), while the
 * unbroken reference passes them (reference.test.ts, strict).
 */
import {
  type ChannelAdapter,
  PlatformError,
  RateLimitedError,
  type ReplyPayloadInput,
  type Transport,
  TransportError,
} from "@outbox/core";
import { describe, expect, it } from "vitest";
import { conformanceCases } from "../src/cases/registry.js";
import { runCase } from "../src/describe-conformance.js";
import { DECOY_HOST } from "../src/media-server.js";
import { createReferenceHarness, type ReferenceHarnessOptions } from "../src/reference/harness.js";

/** Wrap `send` of an adapter, keeping everything else. */
function wrapSend(adapter: ChannelAdapter, send: ChannelAdapter["send"]): ChannelAdapter {
  return {
    name: adapter.name,
    capabilities: adapter.capabilities,
    send,
    close: () => adapter.close?.() ?? Promise.resolve(),
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

const broken: Array<{ bug: string; options: ReferenceHarnessOptions; caughtBy: string[] }> = [
  {
    bug: "drops the reply reference on media and albums",
    options: {
      transport: rewriteMedia((op) => {
        const { replyTo: _dropped, ...rest } = op;
        return rest as typeof op;
      }),
    },
    caughtBy: ["reply.media", "reply.album", "reply.voice"],
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
    caughtBy: [
      "text.long.split",
      "text.code.split",
      "reply.mode.all",
      "thread.split",
      "fault.partial.platform",
      "idempotency.resume",
    ],
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
    caughtBy: ["fault.rate-limit"],
  },
  {
    bug: "fetches a blocked URL (allows every host that resolves, the decoy included)",
    options: { media: (policy) => ({ ...policy, allowHosts: [...(policy.allowHosts ?? []), DECOY_HOST] }) },
    caughtBy: ["policy.blocked-url"],
  },
  {
    bug: "sends a voice note as a document without a degraded entry",
    options: {
      transport: (t) => ({
        ...t,
        sendMedia: (op) => t.sendMedia(op.kind === "voice" ? { ...op, kind: "document" } : op),
      }),
    },
    caughtBy: ["voice.ogg", "voice.tag", "reply.voice", "thread.voice"],
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
        };
      },
    },
    caughtBy: ["fault.partial.platform", "idempotency.resume", "reply.missing", "fault.rate-limit"],
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
    caughtBy: ["idempotency.repeat", "idempotency.resume"],
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
    caughtBy: [
      "receipt.order",
      "receipt.ids",
      "album.groups",
      "fault.partial.load",
      "caption.too-long",
      "text.long.split",
    ],
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
    caughtBy: ["thread.album"],
  },
  {
    bug: "renders without escaping (`<` and `&` reach the platform raw)",
    options: { renderer: (r) => ({ ...r, render: (tree) => r.plain(tree) }) },
    caughtBy: ["text.special-chars"],
  },
  {
    bug: "reads files outside its roots (localRoots: /)",
    options: { media: (policy) => ({ ...policy, localRoots: ["/"] }) },
    caughtBy: ["policy.blocked-path", "policy.media-line-path"],
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
    caughtBy: ["caption.fits", "media.image.media-line", "text.markdown-image"],
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
    caughtBy: ["fault.server-error"],
  },
];

describe("broken adapters fail the suite", () => {
  for (const { bug, options, caughtBy } of broken) {
    describe(bug, () => {
      const harness = createReferenceHarness({ ...options, name: bug });
      it.each(caughtBy)("fails %s", async (id) => {
        const testCase = conformanceCases.find((c) => c.id === id);
        expect(testCase, id).toBeDefined();
        await expect(runCase(testCase!, harness)).rejects.toThrow();
      });
    });
  }
});
