/**
 * The payloads of the peer side by side (the same for Outbox and Vercel's Chat SDK), and how
 * what arrived (the emulator's observation) is checked against what was asked: text intact
 * (whitespace aside), formatting kinds kept, the media item present as the asked kind, the
 * reply linked. Every shortfall is a finding in the result, never an error.
 */
import type { ObservedFormatKind, ObservedMessage } from "@outbox/core";

/** The payloads, in the order they run. */
export const PAYLOADS = ["formatted", "long", "imageUrl", "localFile", "voice", "reply"] as const;
/** One payload's name. */
export type PayloadName = (typeof PAYLOADS)[number];

/** What a payload asks for, independently of who sends it. */
export interface Asked {
  /** The reply's Markdown. */
  markdown: string;
  /** The text a reader should see (markup removed). */
  visible: string;
  /** Formatting the reader should see. */
  formats?: ObservedFormatKind[];
  /** A media item, by fixture: an https URL (served locally) or a local file. */
  media?: { fixture: "png" | "pdf" | "ogg"; from: "url" | "file"; kind: ObservedMessage["kind"] };
  /** Sent as a voice note. */
  voice?: boolean;
  /** A reply to the message seeded in the chat. */
  reply?: boolean;
}

/** A 10,000-character plain reply: numbered sentences, so a cut shows where it happened. */
function longText(length: number): string {
  let text = "";
  for (let i = 1; text.length < length; i++) text += `Sentence ${i} of the long reply keeps going. `;
  const body = text
    .slice(0, length - 1)
    .trimEnd()
    .padEnd(length - 1, "x");
  return `${body}.`;
}

const LONG = longText(10_000);

/** What each payload asks. */
export const ASKED: Record<PayloadName, Asked> = {
  formatted: {
    markdown:
      "**Bold**, _italic_, ~~struck~~, `code` and a [link](https://example.com/docs). Version 1.5 - done!",
    visible: "Bold, italic, struck, code and a link. Version 1.5 - done!",
    formats: ["bold", "italic", "strike", "code", "link"],
  },
  long: { markdown: LONG, visible: LONG },
  imageUrl: {
    markdown: "Here is the chart.",
    visible: "Here is the chart.",
    media: { fixture: "png", from: "url", kind: "image" },
  },
  localFile: {
    markdown: "The report is attached.",
    visible: "The report is attached.",
    media: { fixture: "pdf", from: "file", kind: "document" },
  },
  voice: {
    markdown: "Listen to this.",
    visible: "Listen to this.",
    media: { fixture: "ogg", from: "url", kind: "voice" },
    voice: true,
  },
  reply: { markdown: "Yes, it shipped on Monday.", visible: "Yes, it shipped on Monday.", reply: true },
};

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/** Visible text of the messages, in order (texts and captions). */
function visibleText(arrived: readonly ObservedMessage[]): string {
  return squash(
    arrived
      .flatMap((m) => [m.text, m.caption, ...(m.items ?? []).map((item) => item.caption)])
      .filter((t): t is string => typeof t === "string" && t !== "")
      .join(" "),
  );
}

/** Platforms whose bots cannot send a voice note: an audio file is the most they can ask. */
const NO_VOICE_NOTES = new Set(["slack"]);

/**
 * Findings for what arrived on `platform` against what was asked (`[]` when intact): missing
 * or cut text, lost formatting, a dropped or changed media item, a reply that is not linked.
 */
export function findings(
  platform: string,
  asked: Asked,
  arrived: readonly ObservedMessage[],
  repliedTo?: string,
): string[] {
  const found: string[] = [];
  if (arrived.length === 0) return ["nothing arrived"];
  // Compared without whitespace: a split (or a platform's trimming) may add or drop some.
  const bare = (text: string) => text.replace(/\s+/g, "");
  const want = squash(asked.visible);
  const got = visibleText(arrived);
  if (bare(got) !== bare(want)) {
    const cut = got.replace(/(\.\.\.|…)$/, "").trimEnd();
    if (bare(want).startsWith(bare(cut)))
      found.push(`text truncated: ${cut.length} of ${want.length} characters`);
    else if (!bare(got).includes(bare(want))) found.push(`text changed: ${JSON.stringify(got.slice(0, 60))}`);
  }
  const kinds = new Set(arrived.flatMap((m) => (m.formatting ?? []).map((f) => f.kind)));
  const lost = (asked.formats ?? []).filter((kind) => !kinds.has(kind));
  if (lost.length > 0) found.push(`formatting lost: ${lost.join(", ")}`);
  if (asked.media) {
    const kind = asked.voice && NO_VOICE_NOTES.has(platform) ? "audio" : asked.media.kind;
    const media = arrived.flatMap((m) => (m.items ? m.items : [m])).filter((m) => m.kind !== "text");
    if (media.length === 0) found.push(`${kind} dropped`);
    else if (!media.some((m) => m.kind === kind))
      found.push(`${kind} arrived as ${media.map((m) => m.kind).join(", ")}`);
  }
  if (asked.reply && !arrived.some((m) => m.replyTo === repliedTo || m.thread === repliedTo))
    found.push("not linked to the message it answers");
  return found;
}
