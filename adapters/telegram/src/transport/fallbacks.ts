/**
 * The two things Telegram may refuse that we can repair by sending again, once each:
 * a URL it could not fetch (→ upload the bytes) and markup it could not parse (→ plain text).
 */
import type { RenderedText, SentMessage } from "@outbox/core";
import { isEntityError, isUrlFetchError, toOutboxError } from "./errors.js";

/** How one attempt sends. */
export interface AttemptMode {
  /** Upload the bytes instead of handing Telegram the URL. */
  upload: boolean;
  /** Send text or caption as plain text, without `parse_mode`. */
  plain: boolean;
}

/** Which repairs apply to an operation. */
export interface Repairs {
  /** The first attempt hands Telegram a URL (so an upload can follow). */
  byUrl: boolean;
  /** The operation carries HTML text or a caption (so plain text can follow). */
  markup: boolean;
}

type Degraded = NonNullable<SentMessage["degraded"]>;

/** Caption parameters of a media or album send. */
export interface CaptionParams {
  caption?: string;
  parse_mode?: "HTML";
}

/** The caption as an attempt sends it: HTML, or its plain text once Telegram refused the markup. */
export function captionParams(caption: RenderedText | undefined, mode: AttemptMode): CaptionParams {
  if (caption === undefined) return {};
  return mode.plain ? { caption: caption.plain } : { caption: caption.text, parse_mode: "HTML" };
}

/** Run `attempt`, repairing a refused URL or refused markup by sending again; map errors onto core's. */
export async function sendWithRepairs<T>(
  method: string,
  repairs: Repairs,
  attempt: (mode: AttemptMode) => Promise<T>,
): Promise<{ result: T; degraded?: Degraded }> {
  const mode: AttemptMode = { upload: !repairs.byUrl, plain: false };
  let degraded: Degraded | undefined;
  for (;;) {
    try {
      const result = await attempt(mode);
      return degraded ? { result, degraded } : { result };
    } catch (error) {
      if (!mode.upload && isUrlFetchError(error)) {
        mode.upload = true;
        degraded ??= {
          from: "url",
          to: "upload",
          reason: `Telegram could not fetch the URL (${error.description}); uploaded the bytes`,
        };
        continue;
      }
      if (!mode.plain && repairs.markup && isEntityError(error)) {
        mode.plain = true;
        degraded ??= {
          from: "telegram-html",
          to: "plain",
          reason: `Telegram refused the markup (${error.description}); sent as plain text`,
        };
        continue;
      }
      throw toOutboxError(error, method);
    }
  }
}
