/**
 * `prepareInboundMedia`: the inbound side of the runtime media contract. Media a user sent
 * goes to the runtime natively when it accepts that type; anything else is described in
 * text by the integrator's `describe` (speech-to-text, vision), so nothing is dropped unseen.
 */
import { neutralizeMediaDirectives } from "../parse/neutralize.js";
import type { MediaAttachment } from "../payload/types.js";
import type { RuntimeMediaCapabilities } from "./agent-event.js";

/** Options of {@link prepareInboundMedia}. */
export interface PrepareInboundOptions {
  /** The user's message text; the prompt starts with it. Default empty. */
  text?: string;
  /**
   * Describe an attachment the runtime cannot take (transcribe audio, caption an image, read
   * a document). Return `undefined` when it cannot either. Its text is treated as untrusted.
   */
  describe?: (attachment: MediaAttachment, context: { signal?: AbortSignal }) => Promise<string | undefined>;
  /** Passed to `describe`. */
  signal?: AbortSignal;
}

/** What to hand the runtime. */
export interface PreparedInbound {
  /** The prompt: the user's text, then one line per described or unreadable attachment. */
  text: string;
  /** Attachments the runtime accepts natively, in order. */
  attachments: MediaAttachment[];
  /** Attachments turned into text, with the text. */
  described: Array<{ attachment: MediaAttachment; text: string }>;
  /** Attachments neither accepted nor described, with why; the prompt says they could not be read. */
  unreadable: Array<{ attachment: MediaAttachment; reason: string }>;
}

/** The runtime accepts `mimeType`: it starts with one of the accepted prefixes (case-insensitive; `image/*` counts as `image/`). */
export function acceptsMime(runtime: RuntimeMediaCapabilities, mimeType: string): boolean {
  const type = mimeType.trim().toLowerCase();
  return (runtime.acceptsInbound ?? []).some((accepted) => {
    const prefix = accepted.trim().toLowerCase().replace(/\*$/, "");
    return prefix !== "" && type.startsWith(prefix);
  });
}

/**
 * Split inbound attachments into what the runtime takes natively and text for the rest.
 * Described text is neutralized (a transcript saying "MEDIA: /etc/passwd" stays inert). A
 * `describe` that throws or returns nothing leaves the attachment `unreadable`, noted in the
 * prompt. Attachments are described one after the other, in order.
 */
export async function prepareInboundMedia(
  attachments: readonly MediaAttachment[],
  runtime: RuntimeMediaCapabilities,
  options: PrepareInboundOptions = {},
): Promise<PreparedInbound> {
  const result: PreparedInbound = { text: "", attachments: [], described: [], unreadable: [] };
  const lines: string[] = [];
  for (const attachment of attachments) {
    if (acceptsMime(runtime, attachment.mimeType)) {
      result.attachments.push(attachment);
      continue;
    }
    const label = `${attachment.fileName ?? "attachment"} (${attachment.mimeType})`;
    let text: string | undefined;
    let reason = `the runtime does not accept ${attachment.mimeType} and no describe function was given`;
    if (options.describe) {
      try {
        text = (await options.describe(attachment, options.signal ? { signal: options.signal } : {}))?.trim();
        reason = "describe returned nothing";
      } catch (error) {
        reason = `describe failed: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    if (text) {
      const safe = neutralizeMediaDirectives(text);
      result.described.push({ attachment, text: safe });
      lines.push(`[${label}]: ${safe}`);
    } else {
      result.unreadable.push({ attachment, reason });
      lines.push(`[${label}: could not be read]`);
    }
  }
  result.text = [options.text ?? "", ...lines].filter((part) => part !== "").join("\n");
  return result;
}
