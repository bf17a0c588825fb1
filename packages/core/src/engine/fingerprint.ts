import { createHash } from "node:crypto";
import type { ReplyPayload, Target } from "../payload/types.js";

/**
 * SHA-256 of what a send delivers (the normalized payload, the target and the reply
 * mode), so an idempotency key reused for other content is detected. Inline bytes are
 * hashed, not copied.
 */
export function fingerprint(payload: ReplyPayload, target: Target, replyMode: string): string {
  const hash = createHash("sha256");
  const media = payload.media.map(({ data, base64, ...rest }) => ({
    ...rest,
    bytes: data === undefined ? undefined : createHash("sha256").update(data).digest("hex"),
    base64: base64 === undefined ? undefined : createHash("sha256").update(base64).digest("hex"),
  }));
  hash.update(
    JSON.stringify({
      text: payload.text,
      mediaUrls: payload.mediaUrls,
      media,
      audioAsVoice: payload.audioAsVoice,
      replyToId: payload.replyToId ?? null,
      replyToCurrent: payload.replyToCurrent,
      target: { to: target.to, thread: target.thread ?? null, current: target.currentMessageId ?? null },
      replyMode,
    }),
  );
  return hash.digest("hex");
}
