import type { Capabilities, Clock, Operation, SentMessage, Transport } from "../../../src/adapter/types.js";

/** One operation the transport received, with the virtual time it arrived. */
export interface Recorded {
  /** The operation. */
  op: Operation;
  /** `clock.now()` at arrival. */
  at: number;
  /** Whether it was answered with an id (false when the behaviour threw). */
  delivered: boolean;
}

/** Decides what one call does: return to deliver, throw to fail. */
export type Behaviour = (
  op: Operation,
  call: number,
) => SentMessage | undefined | Promise<SentMessage | undefined>;

/** An in-memory transport that records every call and can be told to fail. */
export interface RecordingTransport extends Transport {
  /** Every call, in order. */
  calls: Recorded[];
  /** Calls that delivered. */
  delivered(): Recorded[];
  /** The operation of call `index` (throws when there is none). */
  op(index: number): Operation;
  /** Replace the behaviour (default: deliver). */
  behave(behaviour: Behaviour): void;
}

/** Create a {@link RecordingTransport}; ids are `m1`, `m2`, … (album members each get one). */
export function createRecordingTransport(clock: Clock): RecordingTransport {
  let next = 0;
  let behaviour: Behaviour = () => undefined;
  const calls: Recorded[] = [];
  const handle = async (op: Operation): Promise<SentMessage> => {
    const record: Recorded = { op, at: clock.now(), delivered: false };
    calls.push(record);
    const custom = await behaviour(op, calls.length);
    record.delivered = true;
    if (custom !== undefined) return custom;
    if (op.type === "album") {
      const memberIds = op.items.map(() => `m${++next}`);
      return { id: memberIds[0] as string, memberIds };
    }
    return { id: `m${++next}` };
  };
  return {
    calls,
    delivered: () => calls.filter((call) => call.delivered),
    op: (index) => {
      const call = calls[index];
      if (call === undefined) throw new Error(`no call ${index}`);
      return call.op;
    },
    behave: (b) => {
      behaviour = b;
    },
    sendText: handle,
    sendMedia: handle,
    sendAlbum: handle,
  };
}

/** Telegram-like capabilities for tests (no rate limits unless given). */
export function testCapabilities(overrides: Partial<Capabilities> = {}): Capabilities {
  return {
    text: { maxLength: 100, format: "test-html" },
    caption: { maxLength: 50 },
    media: {
      kinds: ["image", "animation", "video", "audio", "document"],
      maxBytes: { default: 50_000, image: 10_000 },
      image: { maxDimensionSum: 10_000, maxAspectRatio: 20 },
    },
    album: { minItems: 2, maxItems: 10, groups: [["image", "video"], ["document"], ["audio"]] },
    voice: { mode: "native", formats: ["audio/ogg", "audio/mpeg"] },
    replies: true,
    threads: true,
    markdownImages: false,
    rateLimits: [],
    ...overrides,
  };
}
