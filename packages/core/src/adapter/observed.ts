/**
 * What an emulator reports: the messages a platform holds, decoded from its recorded wire
 * traffic, and the faults it can be told to inject (spec: conformance.md). These types live in
 * core so that an adapter's `./testing` export (its emulator) needs no test package at run time;
 * `@outbox/conformance` re-exports them under the same fixed names.
 */
import type { MediaPolicy } from "../media/types.js";
import type { Target } from "../payload/types.js";
import type { ChannelAdapter, Clock } from "./types.js";

/** The kinds of formatting an emulator decodes from what the platform stored. */
export type ObservedFormatKind = "bold" | "italic" | "strike" | "code" | "pre" | "link" | "spoiler" | "quote";

/**
 * One formatting span as a client of the platform would show it, over the message's visible
 * `text` (or `caption` for a media message). Offsets and lengths count UTF-16 code units.
 */
export type ObservedFormat = {
  /** What the span does to the text. */
  kind: ObservedFormatKind;
  /** Start of the span in the visible text (UTF-16 code units). */
  offset: number;
  /** Length of the span (UTF-16 code units). */
  length: number;
  /** Code language of a `pre` span, when the platform stored one. */
  language?: string;
  /** Target of a `link` span. */
  url?: string;
};

/**
 * What a line of a message is, as the platform's client draws it: `text` (a paragraph's line;
 * a hard break starts a new one), `blank` (the gap between paragraphs and blocks), `item` (a
 * list item's first line), `quote`, `code` (a line of a code block), `heading` (only where
 * the client draws headings; platforms that map them to bold lines show `text`).
 */
export type ObservedLineKind = "text" | "blank" | "item" | "quote" | "code" | "heading";

/** One visible line of a message (see {@link ObservedMessage.lines}). */
export type ObservedLine = {
  /** What the line is. */
  kind: ObservedLineKind;
  /**
   * The line's visible text: for an `item` without its marker and indentation, for a `quote`
   * without its bar or `>`, for `code` exactly as shown (indentation kept), `""` for `blank`.
   */
  text: string;
  /** Nesting level of an `item`: 1 for a top-level item, 2 inside it, and so on. */
  depth?: number;
  /** Number an ordered list shows before an `item`; absent for a bullet. */
  number?: number;
};

/**
 * Who a message notified, as the platform decides it from what it stored (Matrix `m.mentions`,
 * or its legacy push rules on the body when that is absent; Slack's `<!channel>` and `<@U…>`
 * tokens; Discord's content under `allowed_mentions`; Telegram's `tg://user` links).
 */
export type ObservedMentions = {
  /** The whole room or channel was notified (`@room`, `<!channel>`, `<!here>`, `@everyone`, `@here`). */
  everyone?: boolean;
  /** Ids of the users, roles or groups notified by name (`@alice:example.org`, `U0123`, a snowflake). */
  users?: string[];
};

/** One message as the platform holds it, decoded from the emulator's recorded wire traffic. */
export type ObservedMessage = {
  /** What the platform shows. */
  kind: "text" | "image" | "animation" | "video" | "audio" | "voice" | "document" | "album";
  /** Visible text after the platform's own parsing (entities applied, markup removed). */
  text?: string;
  /** Visible caption of a media message or album, after the platform's parsing. */
  caption?: string;
  /**
   * The line structure of `text` (text message) or `caption` (media message) as the
   * platform's client shows it: paragraphs, hard breaks, list items with their nesting and
   * numbers, quotes, code blocks. Set it when the client draws structure the visible text
   * does not spell out (HTML lists, Markdown headings); when absent, the suite reads the lines
   * of the visible text itself with `observedLines(text, formatting)`, which is right for
   * every platform that shows text lines as stored (list markers as characters).
   */
  lines?: ObservedLine[];
  /** Formatting spans over `text` (text message) or `caption` (media message), in order of offset; absent or empty when plain. */
  formatting?: ObservedFormat[];
  /** Album members, in order. */
  items?: ObservedMessage[];
  /**
   * Who the message (or any accepted edit of it) notified; absent when it notified nobody. An
   * emulator decodes it as strictly as the platform: a mention the platform would act on is
   * recorded even when the adapter did not mean it.
   */
  mentions?: ObservedMentions;
  /** Platform id of the message this one replies to. */
  replyTo?: string;
  /** Thread / topic the message was posted in. */
  thread?: string;
  /** File name the platform stored. */
  fileName?: string;
  /** MIME type the platform stored. */
  mimeType?: string;
  /** Hex sha256 of the stored bytes. */
  sha256?: string;
  /** Size of the stored bytes. */
  bytes?: number;
  /**
   * Texts the message showed before its current `text`, oldest first, one per accepted edit
   * (live previews); absent when the message was never edited.
   */
  revisions?: string[];
};

/**
 * Where a fault strikes: the request it hits, named by the platform's method or operation as
 * the emulator names it (Telegram `sendMessage`; Slack `chat.postMessage`,
 * `files.getUploadURLExternal`, `upload` for the POST to an upload URL,
 * `files.completeUploadExternal`; Discord `POST /channels/:id/messages` with every id written
 * `:id`; the reference platform `sendText`, `sendMedia`, `sendAlbum`, `editText`,
 * `deleteMessage`). Method names compare without regard to case.
 */
export interface FaultTarget {
  /** Only requests to this method or operation suffer the fault; any request when absent. */
  method?: string;
  /** Let this many requests the fault would hit pass unharmed first (default 0). */
  skip?: number;
}

/** A misbehaviour the emulator applies to the next call(s) (see {@link FaultTarget} for targeting). */
export type Fault =
  /** Answer 429 with this `retry_after`, `times` calls in a row (default 1). */
  | ({ kind: "rate-limit"; retryAfterMs: number; times?: number } & FaultTarget)
  /** Answer this 5xx status, `times` calls in a row (default 1). */
  | ({ kind: "server-error"; status: 500 | 502 | 503; times?: number } & FaultTarget)
  /** Drop the connection before a response, `times` calls in a row (default 1); the request is received but not processed. */
  | ({ kind: "reset"; times?: number } & FaultTarget)
  /** Answer a platform 400 with this description, on the next call. */
  | ({ kind: "reject"; description: string } & FaultTarget)
  /**
   * Reset the connection before the request is written, `times` connections in a row
   * (default 1): nothing reaches the platform, and the client sees its connection fail
   * before it connected. A connection names no method until a request is written on it,
   * so the target works the other way round: the fault is armed once the emulator has
   * answered a request to `method` (after `skip` such answers), and strikes the next
   * connection opened after that answer; without `method` it strikes the next connection.
   * While it waits, every answer closes its connection (`Connection: close`), so each
   * request opens one; keep-alive connections idle when it is injected are closed.
   */
  | ({ kind: "reset-before-write"; times?: number } & FaultTarget)
  /**
   * Process the request (the message is recorded, as the platform would) and then drop the
   * connection before any byte of the answer, `times` calls in a row (default 1).
   */
  | ({ kind: "reset-after-processed"; times?: number } & FaultTarget)
  /**
   * Process the request (the message is recorded) and never answer, `times` calls in a row
   * (default 1): the client gives up after its own timeout. The connection stays open until
   * the client closes it or the emulator stops.
   */
  | ({ kind: "timeout-after-processed"; times?: number } & FaultTarget);

/** Options of an adapter's `createEmulatedChannel`: how the adapter under demo loads media, and its clock. */
export interface EmulatedChannelOptions {
  /** Media policy for the adapter (local roots, resolver, dispatcher trusting a local CA). */
  media?: MediaPolicy;
  /**
   * PEM certificate(s) the emulator trusts when it fetches URL media itself (platforms that
   * download URLs, such as Telegram). Ignored by emulators that never fetch.
   */
  ca?: string;
  /** Resolver the emulator uses for the URL media it fetches itself. */
  lookup?: MediaPolicy["lookup"];
  /**
   * The adapter's clock (pacing, edit spacing and retry waits). Default the real clock; a
   * test gives a `createManualClock()` to move past a platform's edit interval without waiting.
   */
  clock?: Clock;
}

/**
 * A ready channel on a platform emulator: an adapter wired to a fresh emulator on 127.0.0.1,
 * a target that holds one inbound message (`target.currentMessageId`) to reply to, what
 * the platform shows, and the emulator itself with its faults. Every adapter's `./testing`
 * export offers `createEmulatedChannel()` returning one (with `Emulator` its own emulator's
 * type), so demos, the CLI and tests drive every platform the same way.
 */
export interface EmulatedChannel<Emulator = unknown> {
  /** Platform name (`telegram`, `slack`, …), the adapter's `name`. */
  platform: string;
  /** The adapter, talking to the emulator through the real client library. */
  adapter: ChannelAdapter;
  /** Where to send; `currentMessageId` is a seeded inbound message. */
  target: Target;
  /** Every message the emulated conversation holds, in order (the seeded inbound one excluded). */
  observe(): ObservedMessage[];
  /**
   * Make the emulator misbehave on its next call(s): `channel.inject({ kind: "server-error",
   * status: 502 })`, then send (docs/streaming.md, "Simulating failures"). Every fault kind
   * is applied; a kind or a `method` the emulator cannot apply throws
   * {@link UnknownFaultError} here, before anything is sent. The method names of each
   * platform: docs/conformance.md, "Fault targets".
   */
  inject(fault: Fault): void;
  /** The emulator itself: seed messages, count its 429s, read what each request carried. */
  emulator: Emulator;
  /** Close the adapter and stop the emulator. */
  close(): Promise<void>;
}
