/**
 * An in-test ChannelAdapter (our own interface, not a client library): records every
 * delivery as the normalized payload it got, and optionally offers a live preview.
 */
import {
  type Capabilities,
  type ChannelAdapter,
  type DeliveryReceipt,
  type LivePreview,
  normalizePayload,
  type ReplyPayload,
  type SendOptions,
} from "../../src/index.js";

const base: Capabilities = {
  text: { maxLength: 4000, format: "plain" },
  caption: { maxLength: 1000 },
  media: { kinds: ["image", "audio", "document"], maxBytes: { default: 1_000_000 } },
  album: null,
  voice: { mode: "as-audio", formats: [] },
  replies: true,
  threads: false,
  markdownImages: false,
  rateLimits: [],
};

/** One call the fake adapter received. */
export interface FakeCall {
  /** `send`, `settle`, `update`, `updateFrom` or `cancel`. */
  op: "send" | "settle" | "update" | "updateFrom" | "cancel";
  /** The payload (send, settle). */
  payload?: ReplyPayload;
  /** The preview text (update). */
  text?: string;
  /** The preview's text source (updateFrom), not called by the fake. */
  source?: () => string;
  /** The options given. */
  options?: SendOptions;
}

/** Options of {@link createFakeAdapter}. */
export interface FakeAdapterOptions {
  /** Offer `preview` and declare edits. */
  preview?: boolean;
  /** The preview also offers `updateFrom` (the text asked for lazily). */
  lazyPreview?: boolean;
  /** Make `send` fail (receipt failure) when it returns true for the payload. */
  failWhen?: (payload: ReplyPayload) => boolean;
  /** Called inside each send, before it answers (to abort mid-send, for example). */
  onSend?: (payload: ReplyPayload) => void | Promise<void>;
}

/** A fake adapter and what it saw. */
export function createFakeAdapter(options: FakeAdapterOptions = {}): ChannelAdapter & { calls: FakeCall[] } {
  const calls: FakeCall[] = [];
  let id = 0;
  const answer = async (payload: ReplyPayload): Promise<DeliveryReceipt> => {
    await options.onSend?.(payload);
    if (options.failWhen?.(payload))
      return {
        ok: false,
        messages: [],
        failures: [{ part: 0, error: new Error("refused") as never }],
        degraded: [],
      };
    const count = (payload.text.trim() === "" ? 0 : 1) + payload.mediaUrls.length + payload.media.length;
    return {
      ok: true,
      messages: Array.from({ length: count }, (_, part) => ({
        id: String(++id),
        kind: "text" as const,
        part,
      })),
      failures: [],
      degraded: [],
    };
  };
  const capabilities = { ...base, ...(options.preview ? { edits: { minIntervalMs: 10 } } : {}) };
  const adapter: ChannelAdapter & { calls: FakeCall[] } = {
    name: "fake",
    capabilities,
    calls,
    async send(input, _target, sendOptions) {
      const payload = normalizePayload(input);
      calls.push({ op: "send", payload, ...(sendOptions ? { options: sendOptions } : {}) });
      return answer(payload);
    },
  };
  if (options.preview)
    adapter.preview = (): LivePreview => ({
      update(text) {
        calls.push({ op: "update", text });
      },
      ...(options.lazyPreview
        ? {
            updateFrom(source: () => string) {
              calls.push({ op: "updateFrom", source });
            },
          }
        : {}),
      async settle(input, sendOptions) {
        const payload = normalizePayload(input);
        calls.push({ op: "settle", payload, ...(sendOptions ? { options: sendOptions } : {}) });
        return answer(payload);
      },
      async cancel() {
        calls.push({ op: "cancel" });
        return { markdown: "", truncated: false };
      },
    });
  return adapter;
}

/** An async iterable over `events`, optionally waiting on `gate(i)` before event i. */
export async function* script<T>(
  events: readonly T[],
  gate?: (index: number) => Promise<void> | undefined,
): AsyncGenerator<T> {
  for (const [index, event] of events.entries()) {
    await gate?.(index);
    yield event;
  }
}

/** Visible texts the adapter delivered (send and settle), in order. */
export function deliveredTexts(adapter: { calls: FakeCall[] }): string[] {
  return adapter.calls.flatMap((call) =>
    call.payload && call.payload.text !== "" ? [call.payload.text] : [],
  );
}

/** Media references and inline file paths the adapter delivered, in order. */
export function deliveredMedia(adapter: { calls: FakeCall[] }): string[] {
  return adapter.calls.flatMap((call) =>
    call.payload
      ? [
          ...call.payload.mediaUrls,
          ...call.payload.media.map((item) => item.filePath ?? `inline:${item.fileName}`),
        ]
      : [],
  );
}

/** Every item of an async iterable, in order. */
export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}
