/**
 * The runtime media contract (spec: docs/streaming.md): what an agent runtime emits while
 * it runs, and what media it can take in and give out. Names here are public API.
 */
import type { MediaAttachment } from "../payload/types.js";

/** Media as a runtime or tool hands it over: references (https URLs, local paths) or inline items. */
export type AgentMedia = string[] | MediaAttachment[];

/** A piece of the reply text, in order (a delta: append it to what came before). */
export interface AgentTextEvent {
  /** Discriminator. */
  type: "text";
  /** The next characters of the reply (Markdown, directives allowed). */
  text: string;
}

/** A media item the agent produced for the user; delivered as soon as it arrives. */
export interface AgentMediaEvent {
  /** Discriminator. */
  type: "media";
  /** The item. */
  media: MediaAttachment;
}

/** The agent called a tool (a natural pause in the text: blocks written so far are flushed). */
export interface AgentToolUseEvent {
  /** Discriminator. */
  type: "tool_use";
  /** Tool name. */
  toolName: string;
  /** Id pairing the call with its result. */
  toolCallId?: string;
  /** The tool's input, as the runtime reports it. */
  input?: unknown;
}

/** A tool finished. Its media is queued and delivered with the final reply, unless already delivered. */
export interface AgentToolResultEvent {
  /** Discriminator. */
  type: "tool_result";
  /** Tool name. */
  toolName?: string;
  /** Id pairing the result with its call. */
  toolCallId?: string;
  /**
   * The tool's text output. Never shown to the user by `deliverAgentRun`; its `MEDIA:` lines
   * count as tool media unless the run is `untrusted` (then they are neutralized and inert).
   */
  text?: string;
  /** Media the tool produced. */
  media?: AgentMedia;
  /** The tool asked for its audio to be presented as a voice note. */
  audioAsVoice?: boolean;
  /** The tool failed (its media, if any, is still queued). */
  isError?: boolean;
}

/** The runtime failed; nothing after this event is read. */
export interface AgentErrorEvent {
  /** Discriminator. */
  type: "error";
  /** What the runtime reported. */
  error: unknown;
}

/** The run ended. */
export interface AgentDoneEvent {
  /** Discriminator. */
  type: "done";
  /**
   * The final reply, when the runtime reports one. `text` replaces the streamed deltas when
   * it differs from them; `media` is delivered unless already delivered.
   */
  result?: {
    /** Final reply text (Markdown, directives allowed). */
    text: string;
    /** Media of the final reply. */
    media?: AgentMedia;
  };
}

/** What an agent runtime emits while it runs, in order. */
export type AgentEvent =
  | AgentTextEvent
  | AgentMediaEvent
  | AgentToolUseEvent
  | AgentToolResultEvent
  | AgentErrorEvent
  | AgentDoneEvent;

/** What media an agent runtime (the model behind it) can take in and give out. */
export interface RuntimeMediaCapabilities {
  /** MIME types or prefixes (`image/`, `audio/ogg`) the runtime accepts as input; absent or empty: none. */
  acceptsInbound?: string[];
  /** The runtime can produce media (images, audio) itself. */
  emitsOutbound?: boolean;
}
