/**
 * Once-only delivery within a turn: what streamed blocks and tools already delivered or
 * produced is neither sent twice nor lost by the final reply.
 */
import type { MediaAttachment, ReplyPayload, ReplyPayloadInput } from "../payload/types.js";
import { attachmentIdentities, mediaIdentity } from "./media-identity.js";

/** Options of {@link createDeliveryTurn}. */
export interface DeliveryTurnOptions {
  /** Base for relative paths when comparing media. Default `process.cwd()`. */
  workspaceDir?: string;
}

/** Options of {@link DeliveryTurn.addToolMedia}. */
export interface ToolMediaOptions {
  /** The tool asked for its audio to be presented as a voice note. */
  audioAsVoice?: boolean;
}

/** What was delivered: the text and media of a payload (a {@link ReplyPayload} fits). */
export type SentPayload = Pick<ReplyPayloadInput, "text" | "mediaUrl" | "mediaUrls" | "media">;

/** One turn's memory of what was delivered and what tools produced. */
export interface DeliveryTurn {
  /** Remember the media and text of a payload that was delivered. */
  recordSent(payload: SentPayload): void;
  /** Queue media produced by a tool during the turn. */
  addToolMedia(refs: readonly string[], options?: ToolMediaOptions): void;
  /**
   * `payload` without the media already delivered in this turn (its text untouched); for
   * deliveries during the turn, such as streamed blocks. Does not record anything.
   */
  withoutSent(payload: ReplyPayload): ReplyPayload;
  /**
   * The final payload minus what was already delivered, plus queued tool media the
   * final reply does not name; `null` when nothing is left. The result counts as sent.
   */
  finalize(finalPayload: ReplyPayload): ReplyPayload | null;
}

/** Start a turn. */
export function createDeliveryTurn(options: DeliveryTurnOptions = {}): DeliveryTurn {
  const identity = (ref: string): string => mediaIdentity(ref, options.workspaceDir);
  const names = (item: MediaAttachment): string[] => attachmentIdentities(item, options.workspaceDir);
  const sentMedia = new Set<string>();
  const sentTexts: string[] = [];
  const tool: Array<{ ref: string; id: string; audioAsVoice: boolean }> = [];

  const recordSent = (payload: SentPayload): void => {
    const refs = [
      ...(payload.mediaUrls ?? []),
      ...(payload.mediaUrl === undefined ? [] : [payload.mediaUrl]),
    ];
    for (const ref of refs) if (ref.trim() !== "") sentMedia.add(identity(ref));
    for (const item of payload.media ?? []) for (const name of names(item)) sentMedia.add(name);
    const text = payload.text?.trim() ?? "";
    if (text !== "") sentTexts.push(text);
  };

  const textWasSent = (text: string): boolean =>
    sentTexts.includes(text) || [" ", "\n", "\n\n"].some((glue) => sentTexts.join(glue) === text);

  const unsent = (payload: ReplyPayload): Pick<ReplyPayload, "mediaUrls" | "media"> => {
    const seen = new Set<string>();
    const mediaUrls = payload.mediaUrls.filter((ref) => {
      const id = identity(ref);
      if (sentMedia.has(id) || seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    const media = payload.media.filter((item) => !names(item).some((name) => sentMedia.has(name)));
    return { mediaUrls, media };
  };

  return {
    recordSent,
    withoutSent: (payload) => ({ ...payload, ...unsent(payload) }),
    addToolMedia(refs, toolOptions = {}) {
      for (const ref of refs) {
        const trimmed = ref.trim();
        if (trimmed === "") continue;
        const id = identity(trimmed);
        const queued = tool.find((item) => item.id === id);
        if (queued) queued.audioAsVoice ||= toolOptions.audioAsVoice === true;
        else tool.push({ ref: trimmed, id, audioAsVoice: toolOptions.audioAsVoice === true });
      }
    },
    finalize(finalPayload) {
      const { mediaUrls, media } = unsent(finalPayload);
      const named = new Set(mediaUrls.map(identity));
      let audioAsVoice = finalPayload.audioAsVoice;
      for (const item of tool) {
        if (sentMedia.has(item.id)) continue;
        if (!named.has(item.id)) {
          named.add(item.id);
          mediaUrls.push(item.ref);
        }
        audioAsVoice ||= item.audioAsVoice;
      }
      tool.length = 0;
      const trimmed = finalPayload.text.trim();
      const text = trimmed === "" || textWasSent(trimmed) ? "" : finalPayload.text;
      if (text === "" && mediaUrls.length === 0 && media.length === 0 && finalPayload.embeds.length === 0)
        return null;
      const result: ReplyPayload = { ...finalPayload, text, mediaUrls, media, audioAsVoice };
      recordSent(result);
      return result;
    },
  };
}
