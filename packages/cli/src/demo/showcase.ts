/**
 * The showcase reply of `outbox demo`: one assistant reply exercising every part of the
 * protocol at once (formatting, a text longer than every platform's limit, an image by
 * https URL, a local file, an album, a voice note, a WAV no platform takes as a voice note
 * (degraded to audio), a reply target, an embed, and two media references the policy must refuse).
 */
import { CANVAS_REF } from "./canvas.js";

/** What the showcase needs from the fixture host. */
export interface ShowcaseMedia {
  /** https URL of an image on the local fixture host. */
  imageUrl: string;
}

/**
 * A host the demo's resolver maps to the cloud metadata address 169.254.169.254: it passes
 * the parser's string check, and the loader refuses it after resolving, before connecting.
 */
export const METADATA_HOST = "metadata.outbox.test";
/** The blocked media URL of the showcase. */
export const BLOCKED_URL = `https://${METADATA_HOST}/latest/meta-data/credentials.png`;
/** A local path outside the allowed roots. */
export const REFUSED_PATH = "/etc/passwd";

/**
 * The reply text. `longerThan` is the largest text limit among the platforms: the
 * checklist grows until the text exceeds it, so every platform must split.
 */
export function showcaseReply(media: ShowcaseMedia, longerThan: number): string {
  const head = `# Release 2.4 is live [[reply_to_current]]

The deploy is **done**: *all* checks green, ~~two~~ zero errors, \`v2.4.1\` everywhere.
||The old cluster retires on Friday.|| Details in [the runbook](https://example.com/runbook).

> Rollbacks stay possible for 24 hours.

\`\`\`sh
outbox send telegram --to 4242 "rollback done"
\`\`\`

[embed ref="${CANVAS_REF}" title="Latency" height="220" /]

## Checklist
`;
  const items: string[] = [];
  // Markup is not counted against limits, so grow the raw text well past the limit.
  for (let n = 1; head.length + items.join("\n").length <= longerThan * 1.5; n++)
    items.push(`${n}. Region ${n}: traffic **shifted**, error rate _flat_, \`p99\` under 120 ms.`);
  const tail = `
MEDIA: ${media.imageUrl}
MEDIA: ./doc.pdf
MEDIA: ./photo.jpg
MEDIA: ./clip.mp4
MEDIA: ./voice.ogg
MEDIA: ./tone.wav
MEDIA: ${BLOCKED_URL}
MEDIA: ${REFUSED_PATH}
[[audio_as_voice]]`;
  return `${head}${items.join("\n")}\n${tail}`;
}
