/**
 * The adapter contract (spec: delivery.md). An adapter is capabilities (data), a renderer
 * (Markdown tree → platform text) and a transport (one function per operation); `send` is
 * implemented once, in core, by {@link createAdapter}.
 */
import type { Root } from "mdast";
import type { MediaMemory } from "../engine/media-memory.js";
import type { OutboxError } from "../errors/errors.js";
import type { LoadedMedia, MediaKind, MediaPolicy, MediaTravel } from "../media/types.js";
import type { ReplyPayload, ReplyPayloadInput, Target } from "../payload/types.js";

/** The kinds of message a receipt lists. */
export type MessageKind = "text" | MediaKind | "voice" | "album";

/** A rate limit: at most `limit` operations per `intervalMs`, as a token bucket. */
export interface RateLimit {
  /** `target`: one bucket per `Target.to`; `global`: one bucket for the whole adapter. */
  scope: "target" | "global";
  /** Operations allowed per interval (the bucket's refill). */
  limit: number;
  /** Interval length in milliseconds. */
  intervalMs: number;
  /** Bucket size: how many operations may go at once after a quiet period. Default `limit`. */
  burst?: number;
  /** Regular expression source; when set, the limit applies only to targets whose `to` matches (e.g. `^-` for Telegram groups). */
  match?: string;
  /**
   * How many of this limit's requests each kind of send makes, where the platform counts
   * requests rather than messages: a media send that uploads the file and then posts it is
   * `{ media: 2 }`. Default 1 for each kind. An album counts `album` requests whatever its
   * item count (declare the count of its largest album where that varies).
   */
  requests?: RequestCounts;
}

/** Requests per kind of send, for {@link RateLimit.requests}. */
export interface RequestCounts {
  /** A text message (one chunk). */
  text?: number;
  /** One media message (an upload and a post are 2). */
  media?: number;
  /** One album. */
  album?: number;
}

/** Album (multi-attachment message) rules. */
export interface AlbumCapabilities {
  /** Fewest items in one album (Telegram: 2). */
  minItems: number;
  /** Most items in one album (Telegram and Discord: 10). */
  maxItems: number;
  /** Kinds that may share one album; an album's items all come from one group. */
  groups: MediaKind[][];
}

/** What a platform can carry, as plain JSON. The conformance suite reads it. */
export interface Capabilities {
  /** Text messages. */
  text: {
    /** Hard limit of one message, measured on the rendered text as the platform counts it. */
    maxLength: number;
    /** Preferred chunk size when lower than the hard limit (Slack: 4000). Default `maxLength`. */
    chunkLength?: number;
    /** Markup the renderer produces (`telegram-html`, `slack-mrkdwn`, `discord-markdown`, `plain`). */
    format: string;
  };
  /** Captions on media messages; `null` when the platform has none. */
  caption: {
    /** Limit of one caption, measured on the rendered text. */
    maxLength: number;
    /**
     * Kinds whose messages carry a caption (WhatsApp: image, video, document; its audio has
     * none). When the first native message is another kind, the text goes first as its own
     * message(s). Default every kind; a voice note follows `voice.caption`.
     */
    kinds?: MediaKind[];
  } | null;
  /** Media the platform accepts. */
  media: {
    /** Kinds accepted natively; any other kind goes as a document (if accepted) or fails. */
    kinds: MediaKind[];
    /**
     * MIME types each kind's native message takes, where the platform restricts them
     * (WhatsApp: images are JPEG or PNG). An item of another type goes as a document when the
     * document formats take it (degraded), else fails with `MediaError("unsupported-type")`
     * before any call. A kind not listed takes every type.
     */
    formats?: Partial<Record<MediaKind, string[]>>;
    /**
     * Upload limit in bytes per kind; `default` for kinds not listed. 0 means the kind is never
     * uploaded: it goes by URL (`byUrl`, through `MediaPolicy.host`) or as a link in the text
     * (Teams: images inline up to 1 MB, `default: 0`). An image over its limit becomes a
     * document only where documents are uploaded; else it keeps its kind and goes by URL.
     */
    maxBytes: Partial<Record<MediaKind, number>> & { default: number };
    /**
     * `false` when the platform takes no uploaded bytes (a bot in a Teams channel, LINE, MMS):
     * every item then goes by URL (`byUrl`) or as a hosted link in the text (`hostedLinks`),
     * and `maxBytes` is not an upload limit. Default `true`.
     */
    uploads?: boolean;
    /**
     * The platform fetches an https URL itself within these limits (Telegram, WhatsApp's
     * `link`, Teams' `contentUrl`); absent when it cannot. The URL is the item's own when the
     * integrator opts in (`MediaPolicy.passThrough`), or the link of `MediaPolicy.host` for an
     * item that cannot be uploaded.
     */
    byUrl?: Partial<Record<MediaKind, number>> & { default: number };
    /**
     * Items the platform carries in no native form (a kind it lacks, a file over every limit)
     * go as a link in the text within these limits, put on `MediaPolicy.host`; absent: such an
     * item fails as before (or goes as its own URL when it has a public one).
     */
    hostedLinks?: Partial<Record<MediaKind, number>> & { default: number };
    /** Image rules for the native photo operation; a larger image goes as a document. */
    image?: {
      /** Largest width + height in pixels. */
      maxDimensionSum?: number;
      /** Largest ratio of the long side to the short side. */
      maxAspectRatio?: number;
    };
  };
  /** Albums; `null` when every item goes alone. */
  album: AlbumCapabilities | null;
  /** Voice notes. */
  voice: {
    /** `native`: the platform has voice notes; `as-audio`: audio goes as an audio file. */
    mode: "native" | "as-audio";
    /** MIME types accepted as voice notes (`audio/ogg`, `audio/mpeg`, `audio/mp4`). */
    formats: string[];
    /** A voice note can carry a caption. Default `true`; `false` (Discord) sends the text as its own message first. */
    caption?: boolean;
  };
  /**
   * The platform can reply to a message. `true` is `{ unknownTarget: "refused" }`; declare
   * the object when the platform delivers a reply to an unknown message instead.
   */
  replies: boolean | ReplyCapabilities;
  /** The platform has threads / topics. */
  threads: boolean;
  /**
   * A reply is a thread reply (Slack's `thread_ts`): only the messages that carry the reply
   * land in the thread. A streamed run then puts every message in that thread, so one reply
   * stays in one place. Default `false` (a reply quotes the message, as on Telegram).
   */
  replyThreads?: boolean;
  /** Markdown images with a public https URL are lifted into media. */
  markdownImages: boolean;
  /** Limits the pacer keeps to, so a well-behaved platform answers no 429. */
  rateLimits: RateLimit[];
  /** Editing sent text messages in place (live previews); absent or `null` when the platform cannot. */
  edits?: EditCapabilities | null;
}

/** How a platform lets a sent text message be edited (spec: docs/streaming.md). */
export interface EditCapabilities {
  /** Least time between two edits of one message, in milliseconds, that stays under the platform's edit limits. */
  minIntervalMs: number;
  /**
   * Longest text an edit may carry, as `renderer.measure` counts it, when the platform
   * allows less in an edit than in a new message (Matrix sends the text twice in an edit,
   * as `body` and `m.new_content`). Previews stay within it; a reply whose first message is
   * longer is not edited in: the preview is deleted and the message goes as a new one, with a
   * degradation. Default: `text.maxLength`.
   */
  maxLength?: number;
}

/** Turns the Markdown tree of a reply (or of a piece of it) into platform text. */
export interface Renderer {
  /** Render a tree (the whole reply or a chunk of it) to the platform's markup. */
  render(tree: Root): string;
  /** Length of rendered text as the platform counts it against its limits. */
  measure(rendered: string): number;
  /** Readable plain text for the same tree, used when the platform refuses the markup. */
  plain(tree: Root): string;
  /**
   * Optional: render and measure in one walk. Must return exactly
   * `{ text: render(tree), length: measure(render(tree)) }`; the planner uses it when
   * present, so it never re-reads rendered text to measure it. A renderer derived from
   * another by replacing `render` (`{ ...base, render }`) must replace or drop this too.
   */
  renderMeasured?(tree: Root): MeasuredText;
  /**
   * Optional: declares that `render(tree)` is the renderings of the tree's top-level blocks
   * (each rendered as a tree of its own), empty ones left out, joined by this text, and that
   * `measure` adds up over that join (`measure(a + separator + b)` equals
   * `measure(a) + measure(separator) + measure(b)`). The planner then renders each block
   * once and builds the whole reply and its chunks from those pieces instead of rendering
   * them again. A renderer derived from another by replacing `render` must drop it or keep
   * the promise.
   */
  blockSeparator?: string;
}

/** Rendered text with its length as the platform counts it ({@link Renderer.renderMeasured}). */
export interface MeasuredText {
  /** Platform markup (`Renderer.render`). */
  text: string;
  /** Its length as `Renderer.measure` counts it. */
  length: number;
}

/** Rendered text with its plain-text fallback. */
export interface RenderedText {
  /** Platform markup. */
  text: string;
  /** The same content without markup. */
  plain: string;
}

/** What every operation carries. */
export interface OperationBase {
  /** Where to send. */
  target: Target;
  /** Platform message id to reply to, when this operation replies. */
  replyTo?: string;
  /** Thread / topic id (from `target.thread`), on every operation. */
  thread?: string;
  /** Cancels the operation. */
  signal?: AbortSignal;
  /**
   * A key naming this operation, for a platform that deduplicates by a client-chosen id
   * (Discord's `nonce` with `enforce_nonce`): 24 characters of `[A-Za-z0-9_-]`, the same on
   * every retry of the operation, and in every process for the same send `idempotencyKey`,
   * target and part (a send without `idempotencyKey` derives it from a random id of its own).
   * Set by the engine on every send operation (text, media, album); a transport that sends
   * it declares {@link Transport.deduplicatesByKey}. See docs/writing-an-adapter.md.
   */
  key?: string;
}

/** Send one text message. */
export interface TextOperation extends OperationBase {
  /** Discriminator. */
  type: "text";
  /** The chunk, rendered and within the limit. */
  text: RenderedText;
}

/** Send one media item natively. */
export interface MediaOperation extends OperationBase {
  /** Discriminator. */
  type: "media";
  /** The native operation: a media kind, or `voice` for a voice note. */
  kind: MediaKind | "voice";
  /** The item. */
  media: LoadedMedia;
  /**
   * The https URL the platform is to fetch instead of an upload of the bytes: the item's own
   * (`MediaPolicy.passThrough`) or its media host's link. Absent: upload the bytes.
   */
  url?: string;
  /** Caption, when the rendered text fits the caption limit. */
  caption?: RenderedText;
}

/** Send several media items as one album / multi-attachment message. */
export interface AlbumOperation extends OperationBase {
  /** Discriminator. */
  type: "album";
  /** The items, in order, within the album rules; `url` as in {@link MediaOperation.url}. */
  items: Array<{ kind: MediaKind; media: LoadedMedia; url?: string }>;
  /** Caption of the album, when it fits. */
  caption?: RenderedText;
}

/** Replace the text of a text message this adapter sent (live previews). */
export interface EditOperation extends OperationBase {
  /** Discriminator. */
  type: "edit";
  /** Platform id of the message to edit. */
  messageId: string;
  /** The new text, rendered and within the limit. */
  text: RenderedText;
}

/** Delete a message this adapter sent. */
export interface DeleteOperation extends OperationBase {
  /** Discriminator. */
  type: "delete";
  /** Platform id of the message to delete. */
  messageId: string;
}

/** Any operation a plan can contain. */
export type Operation = TextOperation | MediaOperation | AlbumOperation;

/** What the platform answered for one operation. */
export interface SentMessage {
  /** Platform message id (for an album, the first message's id). */
  id: string;
  /** For an album: every member's id, in order. */
  memberIds?: string[];
  /** A degradation the transport applied itself (e.g. markup refused, resent as plain text). */
  degraded?: { from: string; to: string; reason: string };
  /**
   * The items whose operation `url` the transport uploaded instead (Telegram uploads what it
   * could not fetch), by index in the operation (0 for a media operation), so the receipt
   * says how each went.
   */
  uploadedInstead?: number[];
  /**
   * The platform's rate-limit state for this target after the call, when it reports one
   * (Discord `X-RateLimit-Remaining` / `-Reset-After`); with nothing remaining the engine
   * holds the target until the reset, on top of the declared `rateLimits`.
   */
  rateLimit?: {
    /** Calls left in the current window. */
    remaining: number;
    /** Milliseconds until the window resets. */
    resetAfterMs: number;
  };
}

/**
 * Maps operations onto the real client library. Each function either resolves with the
 * platform's ids or throws one of core's error classes (`RateLimitedError` with the
 * platform's `retryAfterMs`, `TargetNotFoundError` with `missing: "reply"` for a vanished
 * reply target, `UnsupportedFeatureError("voice")` when a voice note is refused, …).
 */
export interface Transport {
  /** Send one text message. */
  sendText(op: TextOperation): Promise<SentMessage>;
  /** Send one media item (including voice notes). */
  sendMedia(op: MediaOperation): Promise<SentMessage>;
  /** Send an album; required when `capabilities.album` is set. */
  sendAlbum?(op: AlbumOperation): Promise<SentMessage>;
  /** Edit a text message in place; required when `capabilities.edits` is set. */
  editText?(op: EditOperation): Promise<SentMessage>;
  /** Delete a message; optional (a live preview that cannot be reused is removed with it). */
  deleteMessage?(op: DeleteOperation): Promise<void>;
  /** Release connections. */
  close?(): Promise<void>;
  /**
   * The platform deduplicates sends by {@link OperationBase.key}, which this transport sends
   * (Discord: `nonce` + `enforce_nonce`): a resend of an operation that may already have been
   * processed returns the message it created instead of a second one. The engine then resends
   * a send whose attempt failed ambiguously (reset or timeout after the request was written,
   * 5xx) within its retries, instead of reporting it ambiguous at once. Default `false`.
   */
  deduplicatesByKey?: boolean;
  /**
   * With {@link deduplicatesByKey}: how long the platform is sure to remember a key, in
   * milliseconds. A part whose `sending` mark an earlier run left in the journal (that run
   * stopped or lost its job between the mark and the answer) is resent with the same key
   * when the mark is younger than this, instead of being reported ambiguous: the platform
   * returns the message if the first request created one. Absent: such a part is reported
   * ambiguous (a repeat may come later than the platform remembers).
   */
  deduplicatesForMs?: number;
}

/** How the platform replies (the object form of {@link Capabilities.replies}). */
export interface ReplyCapabilities {
  /**
   * What the platform does with a reply to a message it does not hold: `refused` (Telegram,
   * Slack, Discord answer an error; the engine sends again without the reference and records a
   * degradation), or `ignored` (Matrix, WhatsApp deliver it with a dangling or dropped quote;
   * the adapter cannot tell, so nothing is degraded).
   */
  unknownTarget: "refused" | "ignored";
}

/** Time source and sleeper; injectable so tests never wait for real. */
export interface Clock {
  /** Milliseconds since an arbitrary origin. */
  now(): number;
  /** Resolve after `ms` milliseconds (rejects when `signal` aborts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Retry bounds. */
export interface RetryPolicy {
  /** Retries after a 429 or a pre-send network failure, per operation. Default 3. */
  maxRetries?: number;
  /** Longest single wait honoured for a 429, in milliseconds; a longer `retry_after` fails fast. Default 60 000. */
  maxRetryWaitMs?: number;
  /** Also retry failures after the request may have been sent (timeouts, resets). Default false. */
  retryAmbiguous?: boolean;
}

/** Options of one `send`. */
export interface SendOptions {
  /** Makes the send once-only: repeated with the same key, only parts not yet delivered go out. */
  idempotencyKey?: string;
  /** Which operations carry the reply reference. Default `first`. */
  replyMode?: "first" | "all" | "off";
  /**
   * What a repeat with the same `idempotencyKey` does with the parts its journal holds as
   * ambiguous (an earlier attempt failed after the request may have reached the platform):
   * `report` them again without sending (the default; `resend` when `retry.retryAmbiguous` is
   * set), `resend` them (you know they did not arrive, or accept a duplicate over a loss), or
   * mark them `delivered` (you saw them in the chat): the journal records them as delivered, so
   * they are neither sent nor reported again, and the receipt lists no message for them (the
   * platform never answered an id). Parts that went or certainly failed are unaffected.
   * Requires `idempotencyKey` (without a journal there is nothing ambiguous to settle). What to
   * check on each platform: docs/delivery.md, "Parts whose outcome is unknown".
   */
  ambiguous?: "report" | "resend" | "delivered";
  /** Cancels the send. */
  signal?: AbortSignal;
  /**
   * The media already delivered in this turn (`createMediaMemory()`): media found in it (the
   * same real path, URL or bytes) is not delivered again, and what this send delivers is
   * added to it. `deliverAgentRun` shares one across a run's deliveries.
   */
  mediaMemory?: MediaMemory;
}

/** One message the platform holds after a send. */
export interface ReceiptMessage {
  /** Platform message id. */
  id: string;
  /** What kind of message it is. */
  kind: MessageKind;
  /** Index of the plan part it delivers (0-based, in plan order). */
  part: number;
  /** How each media item of the message travelled, in order; absent for text. */
  media?: ReceiptMedia[];
}

/** How one media item of a receipt message travelled. */
export interface ReceiptMedia {
  /** Index of the item among the payload's media (as `PlanPart.sources`). */
  source: number;
  /** Its bytes, its own URL, a hosted link fetched by the platform or put in the text, its own URL in the text. */
  via: MediaTravel;
  /** For a hosted item: when its link stops working, in milliseconds since the Unix epoch. */
  expiresAt?: number;
}

/**
 * A part that could not be delivered. The engine fills every field; the ones after `error`
 * are optional so that receipts built by hand stay valid (docs/delivery.md, "Failures").
 */
export interface ReceiptFailure {
  /** Index of the plan part. */
  part: number;
  /** Why, redacted. */
  error: OutboxError;
  /** What the part held, redacted: a text excerpt (`text "…"`) or the media it carries. */
  content?: string;
  /** It may have been delivered anyway (a timeout or reset after sending, a 5xx): check before resending. */
  ambiguous?: boolean;
  /**
   * Resending is safe and may succeed: the part certainly was not delivered and the failure
   * can pass (a rate limit, an unreachable platform, a media fetch). Resend the same payload
   * with the same `idempotencyKey`.
   */
  retryable?: boolean;
  /** What to do about it, in words. */
  action?: string;
}

/** What was and was not delivered. */
export interface DeliveryReceipt {
  /** Every part delivered. */
  ok: boolean;
  /** Delivered messages, in order. */
  messages: ReceiptMessage[];
  /** Parts that could not be delivered, with why, whether they may have gone, and what to do. */
  failures: ReceiptFailure[];
  /** Parts delivered in a lesser form, with the rule applied. */
  degraded: Array<{ part: number; from: string; to: string; reason: string }>;
}

/** A channel adapter: what integrators call. */
export interface ChannelAdapter {
  /** Platform name (`telegram`). */
  readonly name: string;
  /** What the platform can carry (plain JSON, frozen). */
  readonly capabilities: Capabilities;
  /** Deliver a reply. Throws `PayloadError` on invalid input, before any network call. */
  send(
    payload: ReplyPayloadInput | ReplyPayload,
    target: Target,
    options?: SendOptions,
  ): Promise<DeliveryReceipt>;
  /**
   * What `send` would deliver, without delivering it: the same checks (a `PayloadError` or
   * `UnsupportedFeatureError` for what `send` would refuse), the same plan, no network call
   * and no file read. `send` is this plan, with its media loaded, executed ({@link execute}). Media a plan
   * cannot see into (a URL, a file) is planned as if it loads and fits (see
   * {@link PlannedMedia.size}). Present on adapters built with `createAdapter`.
   */
  plan?(
    payload: ReplyPayloadInput | ReplyPayload,
    target: Target,
    options?: PlanOptions,
  ): Promise<PlannedDelivery>;
  /**
   * Deliver a plan made by {@link plan}: its send (`planned.input`), with its media loaded,
   * executed as `send` executes it; `send(payload, target, options)` delivers what
   * `execute(await plan(payload, target, options), options)` does, journal included. A plan
   * made for another platform, or not made by `plan`, is a `PayloadError` before any call.
   * Present on adapters built with `createAdapter`.
   */
  execute?(planned: PlannedDelivery, options?: ExecuteOptions): Promise<DeliveryReceipt>;
  /**
   * Start a live preview: one message that shows the reply while it is written, then
   * settles into the final reply. Present when `capabilities.edits` is set.
   */
  preview?(target: Target, options?: PreviewOptions): LivePreview;
  /** Release the client's resources. */
  close?(): Promise<void>;
}

/** A media item as a plan describes it (see {@link PlannedDelivery}). */
export interface PlannedMedia {
  /** Its kind as planned, before the operation is chosen (`kind` of the part says how it goes). */
  kind: MediaKind;
  /** Its MIME type: declared (inline data), or from the file extension (a URL, a path). */
  mimeType: string;
  /** The file name it would be sent under. */
  fileName: string;
  /** Where it comes from: the URL, the path as written, or `inline`. */
  source: string;
  /**
   * Its size in bytes when the bytes are in hand (inline data); `undefined` for a URL or a
   * file, which a plan does not load: planned as if it loads and fits every limit.
   */
  size: number | undefined;
}

/** One part of a planned delivery: the unit of receipts (`part` in receipt entries). */
export type PlannedPart =
  | {
      /** A text message. */
      type: "text";
      /** Its rendered text (platform markup, and the plain fallback). */
      text: RenderedText;
    }
  | {
      /** One media message. */
      type: "media";
      /** The native operation (`voice` for a voice note). */
      kind: MediaKind | "voice";
      /** The item. */
      media: PlannedMedia;
      /** The reply text as its caption, when it fits. */
      caption?: RenderedText;
    }
  | {
      /** One album message. */
      type: "album";
      /** Its members, in order, each with its native kind. */
      items: Array<{ kind: MediaKind; media: PlannedMedia }>;
      /** The reply text as its caption, when it fits. */
      caption?: RenderedText;
    }
  | {
      /** An input that cannot be delivered (a refused `MEDIA:` line): `send` reports it as a failure. */
      type: "failed";
      /** Why (secrets redacted). */
      error: OutboxError;
    };

/**
 * What `send` would deliver for a payload and target, decided without a network call or a
 * file read (`ChannelAdapter.plan`): the parts in order, the degradations the plan decides,
 * and the number of platform operations. Media a plan cannot see into (a URL, a file) is
 * planned as if it loads and fits: loading it in `send` may still turn it into a document
 * or a link, or fail it, and the receipt then says so.
 */
export interface PlannedDelivery {
  /** The parts, in delivery order. */
  parts: PlannedPart[];
  /** Degradations decided by the plan, by part, as a receipt lists them. */
  degraded: DeliveryReceipt["degraded"];
  /**
   * Transport operations `send` makes when every part goes through at once: one per part
   * that is not failed (an album is one). Pacing waits and retries come on top.
   */
  calls: number;
  /** The message the first operation replies to, if any (per `replyMode`). */
  replyTo: string | undefined;
  /** The adapter's `name`: a plan is executed only by an adapter of that platform. */
  platform: string;
  /**
   * The send this plan is for, normalized: what {@link ChannelAdapter.execute} delivers.
   * Plain data (inline media keeps its bytes), so a plan can be kept and executed later.
   */
  input: PlannedInput;
}

/** The send a {@link PlannedDelivery} is for. */
export interface PlannedInput {
  /** The payload, normalized. */
  payload: ReplyPayload;
  /** The target, checked. */
  target: Target;
  /** Which operations carry the reply reference, as planned. */
  replyMode: "first" | "all" | "off";
}

/**
 * Options of {@link ChannelAdapter.plan}: the ones of `send` that change what is sent. A
 * plan reads no journal: with an `idempotencyKey` whose journal holds delivered parts, `send`
 * sends only the rest.
 */
export type PlanOptions = Pick<SendOptions, "replyMode" | "mediaMemory">;

/**
 * Options of {@link ChannelAdapter.execute}: the ones of `send` that the plan does not fix
 * (its `replyMode` is the plan's). Give the `mediaMemory` the plan was made with, so media
 * the plan left out as already delivered stays out.
 */
export type ExecuteOptions = Omit<SendOptions, "replyMode">;

/** Options of {@link ChannelAdapter.preview}. */
export interface PreviewOptions {
  /** Least time between two edits in milliseconds; never below `capabilities.edits.minIntervalMs`. */
  intervalMs?: number;
  /** Platform message id the preview message replies to. */
  replyToId?: string;
  /** Stops pending edits. */
  signal?: AbortSignal;
}

/** A message that shows a reply while it is being written (spec: docs/streaming.md). */
export interface LivePreview {
  /**
   * Show the text written so far (Markdown; unclosed constructs allowed). Edits are
   * throttled to the platform's limits and coalesced: only the latest text is sent.
   */
  update(markdown: string): void;
  /**
   * Like {@link LivePreview.update}, with the text asked of `source` only when an edit is
   * about to go out (once per edit; the latest source given wins). For a caller that keeps a
   * long reply in pieces, building the whole text on every delta would cost its length each
   * time. A source that throws stops the preview like a failed edit. Optional: callers fall
   * back to `update(source())` when it is absent (`createAdapter`'s previews have it).
   */
  updateFrom?(source: () => string): void;
  /**
   * Deliver the final reply: the preview message becomes its first text message (edited in
   * place) and the remaining parts follow; the receipt lists the reused message's id.
   */
  settle(payload: ReplyPayloadInput | ReplyPayload, options?: SendOptions): Promise<DeliveryReceipt>;
  /**
   * Stop editing; the message keeps the last text shown. Settling afterwards throws.
   * Resolves with what stays on screen, for the receipt (a cancelled preview is delivered
   * text: resending it would show it twice).
   */
  cancel(): Promise<CancelledPreview>;
  /**
   * After `settle`: set when the preview message did not become the reply's first message
   * (the reply opens with media, replies to a message the preview does not, or the edit
   * failed): whether it was `deleted` or `left` with its last text, and why. Optional:
   * previews not built by `createAdapter` may leave it out.
   */
  readonly replaced?: { preview: "deleted" | "left"; reason: string } | undefined;
}

/** What a cancelled {@link LivePreview} left on screen. */
export interface CancelledPreview {
  /** The preview message (`kind` text, `part` 0), when one was sent and not settled. */
  message?: ReceiptMessage;
  /**
   * The Markdown the message shows, as given to `update` (or returned by the `updateFrom`
   * source) for the last text the platform accepted; `""` when nothing is shown.
   */
  markdown: string;
  /**
   * The message shows only the head of `markdown` (it was over the text limit, so the
   * preview showed its beginning and `…`).
   */
  truncated: boolean;
}

/** What a platform package hands to {@link createAdapter}. */
export interface AdapterDefinition {
  /** Platform name. */
  name: string;
  /** What the platform can carry. */
  capabilities: Capabilities;
  /** Markdown tree → platform text. */
  renderer: Renderer;
  /** Operations → client library calls. */
  transport: Transport;
  /** Policy for loading media; `maxBytes` is lowered to the platform's limits. */
  media?: MediaPolicy;
  /** Retry bounds. */
  retry?: RetryPolicy;
  /** Clock for pacing and retry waits. Default: the real clock. */
  clock?: Clock;
  /** Journal for once-only delivery. Default: in memory. */
  store?: DeliveryStore;
  /** How the pacer keeps to `capabilities.rateLimits`. */
  pacing?: PacingOptions;
  /**
   * Secrets the adapter holds (bot token, signing secret, …). The engine removes them, on
   * top of known token shapes, from every error message, `cause` chain and receipt entry it
   * produces, and from what it saves in the journal. Values shorter than six characters are
   * ignored. Default none.
   */
  secrets?: string[];
}

/** How the pacer keeps to the declared rate limits (see docs/delivery.md, "Pacing"). */
export interface PacingOptions {
  /**
   * Fraction below every declared rate the pacer sends at, so the platform's count drifts
   * back to a full burst while we send (room for later jitter) and small clock differences
   * never meet the limit head-on: 0.01 sends at 99% of each limit. The start, where
   * jitter meets a full burst, is what {@link latencyMs} covers. Default 0.01; 0 paces
   * exactly at the declared limits.
   */
  margin?: number;
  /**
   * Allowance for varying request latency, in milliseconds. Requests released one after the
   * other can reach the platform closer together than released (the first ones wait for
   * connections and the client library's queues), and the platform starts counting a limit at
   * the first request's arrival: so a full bucket holds back what its rate refills in this
   * time (never below a burst of 1; Telegram's 30/s overall keeps 15 of its 30, its 1/s per
   * chat 2.5 of 3). When the operation that opened the bucket is answered, its time from
   * release to answer bounds how late the platform can have started counting, and the bucket
   * gets back all but what refills in that time (at least {@link minLatencyMs}). Default 500;
   * 0 keeps the declared bursts.
   */
  latencyMs?: number;
  /**
   * The least allowance a bucket keeps once its first operation is answered, in milliseconds
   * (at most `latencyMs`; equal to it keeps the whole allowance). Default 50.
   */
  minLatencyMs?: number;
  /**
   * After a 429 the pacer lowers the rates of the scope it names (10% per 429, at most to
   * half; 429s within the hold of the one a limit last learned from count once) and returns to the declared
   * rate linearly over this many milliseconds. Default 600 000.
   */
  recoveryMs?: number;
  /**
   * A gate every platform call passes after the pacer, right before it is sent (retries
   * included): resolves when the call may go. `@outbox/queue` passes a token bucket shared
   * by all worker processes through Redis, so N processes together keep to `rateLimits`.
   * Default none. `call` says which call is waiting (for tracing and for tests that stop a
   * worker at one part's wait); `pacing` is the options the adapter was built with (these,
   * the gate included), so the gate keeps the pacer's {@link margin} and latency allowance.
   * It may resolve with a function, called once the call has its answer or failed: as
   * the pacer does, a gate that held a bucket's latency allowance back gives back what the
   * call's time shows was not needed.
   */
  gate?: (
    to: string,
    signal?: AbortSignal,
    call?: GateCall,
    pacing?: PacingOptions,
    // biome-ignore lint/suspicious/noConfusingVoidType: a gate that resolves with nothing (`async () => {}`) stays a gate.
  ) => Promise<void | (() => void)>;
}

/** Which platform call waits at {@link PacingOptions.gate}. */
export interface GateCall {
  /** The plan part the call sends, for a part of a send (none for a preview's calls). */
  part?: number;
  /** 0 for the first request of the call, then 1, 2… for each retry. */
  attempt: number;
}

/** The journal of one idempotent send. */
export interface DeliveryJournal {
  /**
   * Format version (`JOURNAL_VERSION` when this release wrote it). Absent on a journal written
   * before the field existed, which reads as version 1; a version newer than the release
   * knows is refused with a `StoreError` rather than guessed at.
   */
  version?: number;
  /** Fingerprint of the payload and target, so a key reused for other content is detected. */
  fingerprint: string;
  /** Receipt entries of the parts delivered so far. */
  messages: ReceiptMessage[];
  /** Degradations applied to delivered parts. */
  degraded: Array<{ part: number; from: string; to: string; reason: string }>;
  /** Parts fully delivered. */
  deliveredParts: number[];
  /** Number of parts in the plan, once known; with every part delivered, a repeat sends (and loads) nothing. */
  partCount?: number;
  /** Parts whose last attempt failed ambiguously (may have been delivered); a repeat resends them only with `retryAmbiguous`. */
  ambiguousParts?: number[];
  /**
   * The part being sent when this journal was saved (only with a {@link DeliveryStore.writeAhead}
   * store): found on a journal that is read back, the process stopped while sending it, so
   * that part is treated as ambiguous (resent only with `retryAmbiguous`, or with the same key
   * within {@link Transport.deduplicatesForMs} of {@link sendingAt}).
   */
  sending?: number;
  /**
   * When the `sending` part was first marked (its first attempt, in whichever run): wall-clock
   * ms since the Unix epoch (`Date.now()`), comparable across processes.
   */
  sendingAt?: number;
}

/** Pluggable store behind once-only delivery. */
export interface DeliveryStore {
  /** The journal for a key, if any. */
  get(key: string): Promise<DeliveryJournal | undefined>;
  /** Save (replace) the journal for a key; called after every delivered part. */
  set(key: string, journal: DeliveryJournal): Promise<void>;
  /**
   * Also save the journal before each part is sent (with `sending` set), so a process killed
   * between the platform's answer and the journal write leaves the part marked ambiguous
   * instead of resending it. For stores shared by processes that may crash (Redis). Default false.
   */
  readonly writeAhead?: boolean;
}
