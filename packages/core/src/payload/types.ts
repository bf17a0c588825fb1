/**
 * The payload model: what a reply is once parsed, and what adapters consume.
 * Names here are public API (spec: protocol.md, delivery.md).
 */

/** Inline media, e.g. produced by a runtime or a tool. */
export interface MediaAttachment {
  /** MIME type as declared by the producer (`image/png`, `audio/ogg`, …); checked against the bytes. */
  mimeType: string;
  /** A local file; preferred for large files (streamed, never read whole). */
  filePath?: string;
  /** Inline bytes, base64-encoded (a `data:` URI is accepted too). */
  base64?: string;
  /** Inline bytes. */
  data?: Uint8Array;
  /** Where the bytes came from; for reference and logging only, never fetched. */
  sourceUrl?: string;
  /** File name to show on the platform. */
  fileName?: string;
}

/** A rich inline render for the web surface (`[embed …]`); chat channels strip it. */
export interface CanvasEmbed {
  /** Always `canvas`. */
  type: "canvas";
  /** How the web surface previews it. */
  preview: {
    /** Always `canvas`. */
    kind: "canvas";
    /** Always `assistant_message`. */
    surface: "assistant_message";
    /** Always `url`. */
    render: "url";
    /** The canvas document id, when the embed named a `ref`. */
    viewId?: string;
    /** Where the canvas is served: an https URL or a root-relative path. */
    url: string;
    /** Title shown above the render. */
    title?: string;
    /** Height hint in pixels, 160 to 1200. */
    preferredHeight?: number;
  };
}

/** Options of {@link parseReply} and {@link normalizePayload}. */
export interface ParseOptions {
  /** What to do with `MEDIA:` lines: extract them (default), strip them, or leave the text untouched. */
  media?: "extract" | "strip" | "ignore";
  /** Lift Markdown images with a public https URL into media. Default false; an adapter opts in. */
  markdownImages?: boolean;
  /** What `[[reply_to_current]]` resolves to. */
  currentMessageId?: string;
  /** Base for relative paths in media identity. Default `process.cwd()`. */
  workspaceDir?: string;
  /** Where an embed's `ref` points. Default `/__openclaw__/canvas/documents/<encoded ref>/index.html`. */
  canvasUrl?: (ref: string) => string;
}

/** A piece of the cleaned text, or a media reference at its place in the text. */
export type ReplySegment = { type: "text"; text: string } | { type: "media"; url: string };

/** What {@link parseReply} finds in a reply. */
export interface ParsedReply {
  /** Visible text, directives removed. */
  text: string;
  /** Media references in order of appearance, deduplicated, as written (after cleaning). */
  mediaUrls: string[];
  /** An `[[audio_as_voice]]` tag was present. */
  audioAsVoice: boolean;
  /** Explicit id, or `currentMessageId` when `[[reply_to_current]]` was present and the id is known. */
  replyToId?: string;
  /** A `[[reply_to_current]]` tag was present. */
  replyToCurrent: boolean;
  /** Extracted `[embed …]` directives. */
  embeds: CanvasEmbed[];
  /** The cleaned text cut at each extracted media reference, in order; empty text segments omitted. */
  segments: ReplySegment[];
  /**
   * References on `MEDIA:` lines that were refused (a path with `..`, `~user`, an `http:`
   * or private URL, …), with the reason; present only when there are some and media are
   * extracted. The engine reports each as a receipt failure, so none is silently lost.
   */
  refusedMedia?: RefusedMedia[];
}

/** A media reference the parser refused. */
export interface RefusedMedia {
  /** The reference as written, URL credentials and query redacted. */
  reference: string;
  /** Why it cannot be media. */
  reason: string;
}

/** What a runtime hands to Outbox: reply text plus structured fields. */
export interface ReplyPayloadInput {
  /** The assistant's reply (Markdown), possibly with directives. */
  text?: string;
  /** One media reference (https URL or local path). */
  mediaUrl?: string;
  /** Media references (https URLs or local paths). */
  mediaUrls?: string[];
  /** Inline media. */
  media?: MediaAttachment[];
  /** Present audio as a native voice note where the platform can. */
  audioAsVoice?: boolean;
  /** Message to reply to; `null` means never reply (beats any tag). */
  replyToId?: string | null;
  /** Reply to the current inbound message. */
  replyToCurrent?: boolean;
  /** Canvas embeds (web surface only). */
  embeds?: CanvasEmbed[];
}

/** The normalized payload every adapter consumes (output of {@link normalizePayload}). */
export interface ReplyPayload {
  /** Markdown (CommonMark + GFM strikethrough, `||spoiler||`), directives removed. */
  text: string;
  /** https URLs and local paths, deduplicated by media identity. */
  mediaUrls: string[];
  /** Inline media. */
  media: MediaAttachment[];
  /** Present audio as a native voice note where the platform can. */
  audioAsVoice: boolean;
  /** Message to reply to; `null` means never reply. */
  replyToId?: string | null;
  /** Reply to the current inbound message (resolved from `Target.currentMessageId`). */
  replyToCurrent: boolean;
  /** Canvas embeds (web surface only; chat adapters strip them). */
  embeds: CanvasEmbed[];
  /** `MEDIA:` references in the text that were refused (see {@link ParsedReply.refusedMedia}); reported as receipt failures. */
  refusedMedia?: RefusedMedia[];
}

/** Where a reply goes. */
export interface Target {
  /** Chat, channel or user id on the platform. */
  to: string;
  /** Telegram topic id, Slack `thread_ts`, Discord thread channel id. */
  thread?: string;
  /** The inbound message, for `[[reply_to_current]]`. */
  currentMessageId?: string;
}
