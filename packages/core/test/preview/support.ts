import { createAdapter } from "../../src/adapter/create-adapter.js";
import type {
  Capabilities,
  DeleteOperation,
  EditOperation,
  Operation,
  SentMessage,
  TextOperation,
  Transport,
} from "../../src/adapter/types.js";
import { createManualClock, type ManualClock } from "../../src/engine/clock.js";
import type { ChannelAdapter } from "../../src/index.js";
import { createRecordingTransport, testCapabilities } from "../engine/support/recording-transport.js";
import { htmlRenderer } from "../markdown/support/html-renderer.js";

/** One call the in-test platform received, with the virtual time it arrived. */
export type Call = { op: Operation | EditOperation | DeleteOperation; at: number };

/** Decides one edit or delete: throw to refuse, return to accept. */
export type EditBehaviour = (op: EditOperation | DeleteOperation, call: number) => SentMessage | undefined;

/** An adapter with edits over an in-test transport that keeps the messages it holds. */
export interface PreviewHarness {
  adapter: ChannelAdapter;
  clock: ManualClock;
  /** Every call, sends, edits and deletes, in order. */
  calls: Call[];
  /** Current text of each message by id (deleted ones removed). */
  texts: Map<string, string>;
  /** Replace what edits and deletes do (default: accept). */
  behaveEdits(behaviour: EditBehaviour): void;
  /** Replace what sends do (see the recording transport). */
  transport: ReturnType<typeof createRecordingTransport>;
}

/** Telegram-like test capabilities with edits every `minIntervalMs` (default 1000). */
export function previewHarness(
  options: {
    minIntervalMs?: number;
    delete?: boolean;
    capabilities?: Partial<Capabilities>;
    /** The adapter's secrets (kept out of receipts). */
    secrets?: string[];
  } = {},
): PreviewHarness {
  const clock = createManualClock();
  const recording = createRecordingTransport(clock);
  const calls: Call[] = [];
  const texts = new Map<string, string>();
  let behaviour: EditBehaviour = () => undefined;
  let edits = 0;
  const record =
    <T extends Operation>(send: (op: T) => Promise<SentMessage>) =>
    async (op: T): Promise<SentMessage> => {
      calls.push({ op, at: clock.now() });
      const sent = await send(op);
      if (op.type === "text") texts.set(sent.id, (op as TextOperation).text.text);
      return sent;
    };
  const transport: Transport = {
    sendText: record(recording.sendText),
    sendMedia: record(recording.sendMedia),
    sendAlbum: record(recording.sendAlbum as NonNullable<Transport["sendAlbum"]>),
    async editText(op) {
      calls.push({ op, at: clock.now() });
      const custom = behaviour(op, ++edits);
      if (!texts.has(op.messageId)) throw new Error(`no message ${op.messageId}`);
      texts.set(op.messageId, op.text.text);
      return custom ?? { id: op.messageId };
    },
    ...(options.delete === false
      ? {}
      : {
          async deleteMessage(op: DeleteOperation) {
            calls.push({ op, at: clock.now() });
            behaviour(op, ++edits);
            texts.delete(op.messageId);
          },
        }),
  };
  const adapter = createAdapter({
    name: "test",
    capabilities: testCapabilities({
      edits: { minIntervalMs: options.minIntervalMs ?? 1000 },
      ...options.capabilities,
    }),
    renderer: htmlRenderer,
    transport,
    clock,
    pacing: { margin: 0, latencyMs: 0 },
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
  });
  return {
    adapter,
    clock,
    calls,
    texts,
    transport: recording,
    behaveEdits: (b) => {
      behaviour = b;
    },
  };
}

/** The calls of one type, as `[type, time, text]` rows (text for sends and edits). */
export function rows(calls: Call[]): Array<[string, number, string | undefined]> {
  return calls.map(({ op, at }) => [op.type, at, "text" in op ? op.text.text : undefined]);
}
