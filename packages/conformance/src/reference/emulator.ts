import type { Capabilities, MediaKind } from "@outbox/core";
import { createFaultQueue, createTokenBuckets } from "@outbox/core/testing";
import { sha256Hex } from "../fixtures.js";
import type { Fault, ObservedMessage } from "../types.js";
import { downloadUrl, type UrlDownloadOptions } from "./fetch-url.js";
import { type ParsedReferenceMarkup, parseReferenceMarkup, parseReferenceSpans } from "./markup.js";

/** A file as uploaded to the reference platform. */
export interface EmulatorFile {
  /** File name. */
  name: string;
  /** Declared MIME type. */
  mimeType: string;
  /** The bytes. */
  bytes: Uint8Array;
}

/** Fields every reference platform call carries. */
interface CallBase {
  /** Chat id. */
  chat: string;
  /** Message id replied to. */
  replyTo?: string;
  /** Thread root message id. */
  thread?: string;
}

/** One call to the reference platform's API. */
export type EmulatorCall =
  | (CallBase & { method: "sendText"; text: string })
  | (CallBase & { method: "editText"; messageId: string; text: string })
  | (CallBase & { method: "deleteMessage"; messageId: string })
  | (CallBase & { method: "sendMedia"; kind: MediaKind | "voice"; file: EmulatorFile; caption?: string })
  | (CallBase & {
      method: "sendAlbum";
      items: Array<{ kind: MediaKind; file: EmulatorFile }>;
      caption?: string;
    });

/** A call that posts a new message. */
type SendCall = Exclude<EmulatorCall, { method: "editText" | "deleteMessage" }>;

/** What the reference platform answers: message ids, or an HTTP-style refusal. */
export type EmulatorResponse =
  | { ok: true; ids: string[] }
  | { ok: false; status: number; description: string; retryAfterMs?: number };

/** Error thrown when the emulator drops the connection (a `reset` or `reset-after-processed` fault). */
export class EmulatorResetError extends Error {
  /** Always `ECONNRESET`, like a socket error. */
  readonly code = "ECONNRESET";
}

/** Error thrown when the call never reached the emulator (a `reset-before-write` fault). */
export class EmulatorRefusedError extends Error {
  /** Always `ECONNREFUSED`, like a connection that never opened. */
  readonly code = "ECONNREFUSED";
}

/** Error thrown when the emulator never answers (a `timeout-after-processed` fault): the client gave up. */
export class EmulatorTimeoutError extends Error {
  /** Always `ETIMEDOUT`, like a client's timeout. */
  readonly code = "ETIMEDOUT";
}

/**
 * How early a call may arrive before its token is due and still be accepted. A pacer
 * releases a call when its token is there, but the call reaches the platform a little
 * later, and concurrent calls a variable time later (measured: up to ~15 ms with 101
 * concurrent sends on a busy machine), so arrivals bunch. Real platforms tolerate this;
 * an adapter without pacing still overruns the bucket by far more.
 */
const IN_FLIGHT_SLACK_MS = 100;

/**
 * How early an edit may come before the message's edit interval is over and still be
 * accepted: an adapter measures the interval from its own answer, after the platform's.
 */
const EDIT_SLACK_MS = 5;

/** The chat id every reference harness sends to. */
export const REFERENCE_CHAT = "reference-chat";

/**
 * An in-memory reference platform: as strict as a real one about its declared limits
 * (text and caption length after parsing, malformed markup, upload size, album rules,
 * voice formats, unknown chats, reply targets and threads, rate limits), recording every
 * accepted message as an {@link ObservedMessage}. With `capabilities.edits` it edits and
 * deletes its text messages, refusing an edit that changes nothing (`message is not
 * modified`) and one sooner than `edits.minIntervalMs` after the message last changed
 * (429, counted as a refusal); each accepted edit adds the previous text to `revisions`.
 */
export class ReferenceEmulator {
  readonly #capabilities: Capabilities;
  readonly #observed: ObservedMessage[] = [];
  readonly #known = new Set<string>();
  readonly #faults = createFaultQueue(["sendText", "sendMedia", "sendAlbum", "editText", "deleteMessage"]);
  readonly #reached: EmulatorCall[] = [];
  readonly #now: () => number;
  readonly #buckets: ReturnType<typeof createTokenBuckets>;
  /** Messages by id (every album member maps to its album), with when each last changed. */
  readonly #byId = new Map<string, { message: ObservedMessage; changedAt: number }>();
  #nextId = 1000;
  #calls = 0;
  #refusals = 0;

  readonly #download: UrlDownloadOptions;
  readonly #fetched: string[] = [];

  /**
   * Enforce these capabilities as the platform's rules; download URL media with `download`;
   * time rate windows and edit intervals with `now` (milliseconds; default `performance.now`).
   */
  constructor(
    capabilities: Capabilities,
    download: UrlDownloadOptions = {},
    now: () => number = () => performance.now(),
  ) {
    this.#capabilities = capabilities;
    this.#download = download;
    this.#now = now;
    this.#buckets = createTokenBuckets(now);
  }

  /**
   * Download media handed over by URL, as the platform fetches it (the transport's
   * `op.url`); the URL is recorded in {@link fetched} whether or not it answers.
   */
  async fetchFile(url: string, name: string, mimeType: string): Promise<EmulatorFile> {
    this.#fetched.push(url);
    return { name, mimeType, bytes: await downloadUrl(url, this.#download) };
  }

  /** Every URL the platform fetched, in order. */
  fetched(): string[] {
    return [...this.#fetched];
  }

  /** Every accepted message, in order (copies). */
  observe(): ObservedMessage[] {
    return structuredClone(this.#observed);
  }

  /** Queue a fault for the next call(s). */
  inject(fault: Fault): void {
    this.#faults.inject({ ...fault });
  }

  /** Every call that reached the platform, processed or not, in order (a refused connection's call is not here). */
  reached(): readonly EmulatorCall[] {
    return this.#reached;
  }

  /** Calls received so far, refused ones included. */
  calls(): number {
    return this.#calls;
  }

  /** Calls refused with 429 under the enforced rate limits (injected `rate-limit` faults not counted). */
  rateLimitRefusals(): number {
    return this.#refusals;
  }

  /**
   * Handle one API call, each as if on its own connection. Throws
   * {@link EmulatorRefusedError} for a `reset-before-write` fault (the call is not counted),
   * {@link EmulatorResetError} for `reset` and `reset-after-processed`, and
   * {@link EmulatorTimeoutError} for `timeout-after-processed` (both after processing it).
   */
  async call(call: EmulatorCall): Promise<EmulatorResponse> {
    if (this.#faults.refuse()) throw new EmulatorRefusedError("connect ECONNREFUSED");
    this.#calls += 1;
    this.#reached.push(call);
    const fault = this.#faults.next(call.method);
    const refusal = fault === undefined ? undefined : refusalFor(fault);
    const response = refusal ?? this.#process(call);
    if (fault?.kind === "reset-after-processed") throw new EmulatorResetError("socket hang up");
    if (fault?.kind === "timeout-after-processed") throw new EmulatorTimeoutError("request timed out");
    this.#faults.answered(call.method);
    return response;
  }

  /** The platform's own handling of a call. */
  #process(call: EmulatorCall): EmulatorResponse {
    const kind = call.method === "sendMedia" ? "media" : call.method === "sendAlbum" ? "album" : "text";
    const limited = this.#rateLimit(call.chat, kind, "post");
    if (limited) return limited;
    if (call.method === "editText" || call.method === "deleteMessage") return this.#change(call);
    const refusal = this.#validate(call);
    if (refusal) return { ok: false, status: refusal.status ?? 400, description: refusal.description };
    return { ok: true, ids: this.#store(call) };
  }

  /** An edit or a delete: the platform's rules for changing a message it holds. */
  #change(call: Exclude<EmulatorCall, SendCall>): EmulatorResponse {
    const refuse = (description: string, status = 400): EmulatorResponse => ({
      ok: false,
      status,
      description,
    });
    const edits = this.#capabilities.edits;
    if (edits == null) return refuse(`${call.method} is not supported`, 404);
    if (call.chat !== REFERENCE_CHAT) return refuse("chat not found");
    const entry = this.#byId.get(call.messageId);
    if (entry === undefined)
      return refuse(`message to ${call.method === "editText" ? "edit" : "delete"} not found`);
    const { message } = entry;
    if (call.method === "deleteMessage") {
      this.#observed.splice(this.#observed.indexOf(message), 1);
      for (const [id, other] of this.#byId)
        if (other.message === message) {
          this.#byId.delete(id);
          this.#known.delete(id);
        }
      return { ok: true, ids: [call.messageId] };
    }
    if (message.kind !== "text") return refuse("there is no text in the message to edit");
    let parsed: ParsedReferenceMarkup;
    try {
      const refused = this.#validateText(call.text, edits.maxLength);
      if (refused) return refuse(refused.description);
      parsed = parseReferenceSpans(call.text);
    } catch (error) {
      return refuse((error as Error).message);
    }
    if (
      parsed.text === message.text &&
      JSON.stringify(parsed.formatting) === JSON.stringify(message.formatting ?? [])
    )
      return refuse(
        "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
      );
    const now = this.#now();
    const wait = entry.changedAt + edits.minIntervalMs - now;
    if (wait > EDIT_SLACK_MS) {
      this.#refusals += 1;
      return {
        ok: false,
        status: 429,
        description: "Too Many Requests: edits too fast",
        retryAfterMs: Math.ceil(wait),
      };
    }
    message.revisions = [...(message.revisions ?? []), message.text ?? ""];
    const { formatting: _old, ...rest } = message;
    Object.assign(message, { ...rest, ...shown("text", parsed) });
    if (parsed.formatting.length === 0) delete message.formatting;
    entry.changedAt = now;
    return { ok: true, ids: [call.messageId] };
  }

  /**
   * The upload of a media message's or an album's files, a request of its own before the post
   * (`sendMedia`, `sendAlbum`), counted when it arrives, as platforms count uploads: it takes
   * the requests its limits declare for the kind beyond the post (`rateLimits[].requests`),
   * and answers 429 (counted as a refusal) when a bucket is empty. Nothing is stored.
   */
  upload(chat: string, kind: "media" | "album"): EmulatorResponse {
    return this.#rateLimit(chat, kind, "upload") ?? { ok: true, ids: [] };
  }

  /**
   * Token buckets, as `RateLimit` defines them: `burst` (default `limit`) at once, refilled at
   * `limit` per `intervalMs`. A post takes one token of each bucket that applies; an upload
   * takes what the limit declares for the kind beyond the post.
   */
  #rateLimit(
    chat: string,
    kind: "text" | "media" | "album",
    request: "upload" | "post",
  ): EmulatorResponse | undefined {
    const rules = this.#capabilities.rateLimits.flatMap((limit, index) => {
      if (limit.match !== undefined && !new RegExp(limit.match).test(chat)) return [];
      const key = limit.scope === "global" ? `${index}` : `${index}\u0000${chat}`;
      const rule = { key, capacity: limit.burst ?? limit.limit, perMs: limit.limit / limit.intervalMs };
      const tokens = request === "post" ? 1 : (limit.requests?.[kind] ?? 1) - 1;
      return Array.from({ length: tokens }, () => rule);
    });
    if (rules.length === 0) return undefined;
    const waitMs = this.#buckets.take(rules, IN_FLIGHT_SLACK_MS);
    if (waitMs === undefined) return undefined;
    this.#refusals += 1;
    return { ok: false, status: 429, description: "Too Many Requests", retryAfterMs: Math.ceil(waitMs) };
  }

  /** Whether the platform delivers a reply to an unknown message (`replies.unknownTarget: "ignored"`). */
  #ignoresUnknownReplies(): boolean {
    const { replies } = this.#capabilities;
    return typeof replies === "object" && replies.unknownTarget === "ignored";
  }

  #validate(call: SendCall): { status?: number; description: string } | undefined {
    if (call.chat !== REFERENCE_CHAT) return { description: "chat not found" };
    if (call.replyTo !== undefined && !this.#known.has(call.replyTo) && !this.#ignoresUnknownReplies())
      return { description: "message to be replied not found" };
    if (call.thread !== undefined && !this.#known.has(call.thread))
      return { description: "message thread not found" };
    try {
      if (call.method === "sendText") return this.#validateText(call.text);
      if (call.caption !== undefined) {
        const limit = this.#capabilities.caption?.maxLength ?? 0;
        if (parseReferenceMarkup(call.caption).length > limit)
          return { description: "message caption is too long" };
      }
    } catch (error) {
      return { description: (error as Error).message };
    }
    return call.method === "sendMedia"
      ? this.#validateMedia(call.kind, call.file)
      : this.#validateAlbum(call.items);
  }

  /** Refuse empty text and text over the limit (`editLimit` too, for an edit). */
  #validateText(text: string, editLimit?: number): { description: string } | undefined {
    const visible = parseReferenceMarkup(text);
    if (visible.trim() === "") return { description: "message text is empty" };
    if (visible.length > this.#capabilities.text.maxLength) return { description: "message is too long" };
    if (editLimit !== undefined && visible.length > editLimit)
      return { description: `edited message is too long (an edit carries at most ${editLimit})` };
    return undefined;
  }

  #validateMedia(
    kind: MediaKind | "voice",
    file: EmulatorFile,
  ): { status?: number; description: string } | undefined {
    const { media, voice } = this.#capabilities;
    if (kind === "voice") {
      if (voice.mode !== "native" || !voice.formats.includes(file.mimeType))
        return { description: "VOICE_FORMAT_UNSUPPORTED" };
    } else if (!media.kinds.includes(kind)) return { description: `wrong file type for ${kind}` };
    const max = kind === "voice" ? media.maxBytes.audio : media.maxBytes[kind];
    if (file.bytes.length > (max ?? media.maxBytes.default))
      return { status: 413, description: "file is too big" };
    return undefined;
  }

  #validateAlbum(items: Array<{ kind: MediaKind; file: EmulatorFile }>) {
    const rules = this.#capabilities.album;
    if (!rules) return { description: "albums are not supported" };
    if (items.length < rules.minItems || items.length > rules.maxItems)
      return { description: "wrong number of album items" };
    if (!rules.groups.some((group) => items.every((item) => group.includes(item.kind))))
      return { description: "these media can't be grouped" };
    for (const item of items) {
      const refused = this.#validateMedia(item.kind, item.file);
      if (refused) return refused;
    }
    return undefined;
  }

  #store(call: SendCall): string[] {
    const place = {
      ...(call.replyTo === undefined ? {} : { replyTo: call.replyTo }),
      ...(call.thread === undefined ? {} : { thread: call.thread }),
    };
    const caption = call.method !== "sendText" && call.caption !== undefined ? call.caption : undefined;
    const captioned = caption === undefined ? {} : shown("caption", parseReferenceSpans(caption));
    if (call.method === "sendText")
      return this.#keep({ kind: "text", ...shown("text", parseReferenceSpans(call.text)), ...place }, 1);
    if (call.method === "sendMedia")
      return this.#keep({ ...fileFields(call.kind, call.file), ...captioned, ...place }, 1);
    const items = call.items.map((item) => fileFields(item.kind, item.file));
    return this.#keep({ kind: "album", items, ...captioned, ...place }, items.length);
  }

  /** Record a message under `count` new ids. */
  #keep(message: ObservedMessage, count: number): string[] {
    this.#observed.push(message);
    const changedAt = this.#now();
    return Array.from({ length: count }, () => {
      const id = String(this.#nextId++);
      this.#known.add(id);
      this.#byId.set(id, { message, changedAt });
      return id;
    });
  }
}

// --- internal ---

/** The answer a request-level fault gives instead of processing; `undefined` when the call is processed. */
function refusalFor(fault: Fault): EmulatorResponse | undefined {
  switch (fault.kind) {
    case "rate-limit":
      return { ok: false, status: 429, description: "Too Many Requests", retryAfterMs: fault.retryAfterMs };
    case "server-error":
      return { ok: false, status: fault.status, description: "Internal Server Error" };
    case "reject":
      return { ok: false, status: 400, description: fault.description };
    case "reset":
      throw new EmulatorResetError("socket hang up");
    default:
      return undefined;
  }
}

/** Visible text (or caption) and its spans, as an observation carries them; no `formatting` when plain. */
function shown(
  field: "text" | "caption",
  parsed: ParsedReferenceMarkup,
): Pick<ObservedMessage, "text" | "caption" | "formatting"> {
  return {
    [field]: parsed.text,
    ...(parsed.formatting.length > 0 ? { formatting: parsed.formatting } : {}),
  };
}

function fileFields(kind: MediaKind | "voice", file: EmulatorFile): ObservedMessage {
  return {
    kind,
    fileName: file.name,
    mimeType: file.mimeType,
    sha256: sha256Hex(file.bytes),
    bytes: file.bytes.length,
  };
}
