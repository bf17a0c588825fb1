/** Assertions on the formatting spans an emulator decodes (internal to the package). */
import { expect } from "vitest";
import type {
  CaseContext,
  FormatGaps,
  ObservedFormat,
  ObservedFormatKind,
  ObservedMessage,
} from "../types.js";

/**
 * Whether the platform shows formatting (its `text.format` is not `plain`) and, when `gap`
 * is given, that kind too (the harness declares no {@link FormatGaps} entry for it).
 * Where it does not, the cases accept the plain words instead of a span.
 */
export function shows(ctx: CaseContext, gap?: keyof FormatGaps): boolean {
  return ctx.capabilities.text.format !== "plain" && (gap === undefined || ctx.formatGaps[gap] === undefined);
}

/** The visible text spans of a message lie over: `text`, or `caption` for a media message or album. */
export function spannedText(message: ObservedMessage | undefined): string {
  return (message?.kind === "text" ? message.text : message?.caption) ?? "";
}

/** Spans of one kind, each checked to lie within the message's visible text. */
export function spansOf(message: ObservedMessage | undefined, kind: ObservedFormatKind): ObservedFormat[] {
  const text = spannedText(message);
  const spans = (message?.formatting ?? []).filter((span) => span.kind === kind);
  for (const span of spans) {
    expect(span.offset, `${kind} span offset`).toBeGreaterThanOrEqual(0);
    expect(span.length, `${kind} span length`).toBeGreaterThan(0);
    expect(span.offset + span.length, `${kind} span end within the text`).toBeLessThanOrEqual(text.length);
  }
  return spans;
}

/** What each span of a kind covers, trimmed, in order. */
export function spannedWords(message: ObservedMessage | undefined, kind: ObservedFormatKind): string[] {
  const text = spannedText(message);
  return spansOf(message, kind).map((span) => text.slice(span.offset, span.offset + span.length).trim());
}

/** Exactly these words carry this kind, in order, and nothing else does. */
export function expectFormatted(
  message: ObservedMessage | undefined,
  kind: ObservedFormatKind,
  words: string[],
): void {
  expect(spannedWords(message, kind), `${kind} spans (what the platform shows as ${kind})`).toEqual(words);
}

/** The links of a message: what each covers and where it points. */
export function links(
  message: ObservedMessage | undefined,
): Array<{ text: string; url: string | undefined }> {
  const text = spannedText(message);
  return spansOf(message, "link").map((span) => ({
    text: text.slice(span.offset, span.offset + span.length).trim(),
    url: span.url,
  }));
}

/** Lines of a message's visible text with their UTF-16 offsets. */
export function linesWithOffsets(text: string): Array<{ line: string; offset: number }> {
  let offset = 0;
  return text.split("\n").map((line) => {
    const entry = { line, offset };
    offset += line.length + 1;
    return entry;
  });
}

/** Whether `[offset, offset + length)` lies inside one of the spans. */
export function covered(spans: ObservedFormat[], offset: number, length: number): boolean {
  return spans.some((span) => span.offset <= offset && offset + length <= span.offset + span.length);
}
