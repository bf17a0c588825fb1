/** Shared steps and assertions of the cases (internal to the package). */
import type {
  Capabilities,
  DeliveryReceipt,
  MediaKind,
  MessageKind,
  ReplyPayloadInput,
  SendOptions,
  Target,
} from "@outbox/core";
import { expect } from "vitest";
import { type FixtureName, fixtureBytes, fixtureSha256, fixtures } from "../fixtures.js";
import { conformanceMedia } from "../media-server.js";
import type { CaseContext, ObservedMessage } from "../types.js";

/** A send and what it added to the platform. */
export interface SendResult {
  /** The adapter's receipt. */
  receipt: DeliveryReceipt;
  /** Messages the platform gained during the send, in order. */
  observed: ObservedMessage[];
}

/** Send and collect the messages the platform gained meanwhile. */
export async function send(
  ctx: CaseContext,
  payload: ReplyPayloadInput,
  options?: SendOptions,
  target: Target = ctx.target,
): Promise<SendResult> {
  const before = ctx.observe().length;
  const receipt = await ctx.adapter.send(payload, target, options);
  return { receipt, observed: ctx.observe().slice(before) };
}

/** Send a short text and return its platform id (a message to reply to, or a thread root). */
export async function anchor(ctx: CaseContext, label: string): Promise<string> {
  const { receipt } = await send(ctx, { text: `anchor: ${label}` });
  const id = receipt.messages[0]?.id;
  expect(id, "anchor message id").toBeTypeOf("string");
  return id as string;
}

/** The target the thread cases use: `target.thread` when the harness set one, else a fresh message as thread root. */
export async function threadTarget(ctx: CaseContext): Promise<Target> {
  if (ctx.target.thread !== undefined) return ctx.target;
  return { ...ctx.target, thread: await anchor(ctx, "thread root") };
}

/**
 * The kind a platform with these capabilities shows for a media kind of this MIME type (an
 * animation falls back to image, anything to document, each where `media.formats` takes the
 * type); `undefined` when it cannot carry it.
 */
export function expectedKind(
  capabilities: Capabilities,
  kind: MediaKind,
  mimeType: string,
): MessageKind | undefined {
  const accepts = (k: MediaKind): boolean =>
    capabilities.media.kinds.includes(k) && (capabilities.media.formats?.[k]?.includes(mimeType) ?? true);
  if (accepts(kind)) return kind;
  if (kind === "animation" && accepts("image")) return "image";
  return accepts("document") ? "document" : undefined;
}

/** Whether audio with `audioAsVoice` goes as a native voice note on these capabilities. */
export function voiceNative(capabilities: Capabilities, mimeType: string): boolean {
  return capabilities.voice.mode === "native" && capabilities.voice.formats.includes(mimeType);
}

/** The receipt lists exactly the observed messages: same count, kinds and order; parts never go back. */
export function expectReceiptMatches(result: SendResult): void {
  const { receipt, observed } = result;
  expect(
    receipt.messages.map((m) => m.kind),
    "receipt kinds vs observed kinds",
  ).toEqual(observed.map((m) => m.kind));
  const parts = receipt.messages.map((m) => m.part);
  expect(parts, "receipt parts in plan order").toEqual([...parts].sort((a, b) => a - b));
  const ids = receipt.messages.map((m) => m.id);
  for (const id of ids) expect(id, "message id").toMatch(/\S/);
  expect(new Set(ids).size, "distinct message ids").toBe(ids.length);
}

/** Delivered in full: `ok`, nothing failed, receipt equals observation. */
export function expectDelivered(result: SendResult): void {
  const { failures } = result.receipt;
  if (failures.length > 0)
    expect.fail(`failures: ${failures.map((f) => `part ${f.part}: ${f.error.message}`).join("; ")}`);
  expect(result.receipt.ok, "receipt.ok").toBe(true);
  expectReceiptMatches(result);
}

/** The message carries exactly the fixture's bytes. */
export function expectBytes(message: ObservedMessage | undefined, name: FixtureName): void {
  expect(message, `message carrying ${fixtures[name].fileName}`).toBeDefined();
  expect(message?.sha256, `sha256 of ${fixtures[name].fileName}`).toBe(fixtureSha256(name));
}

/** Every media message in order, album members flattened. */
export function mediaMessages(observed: ObservedMessage[]): ObservedMessage[] {
  return observed.flatMap((m) => (m.kind === "album" ? (m.items ?? []) : m.kind === "text" ? [] : [m]));
}

/** Visible text of messages and captions, whitespace-normalized, joined by one space. */
export function visibleText(observed: ObservedMessage[]): string {
  return normalize(
    observed
      .flatMap((m) => [m.text, m.caption])
      .filter((t) => t !== undefined)
      .join(" "),
  );
}

/**
 * Text of about 2.5 chunks (`text.chunkLength`, else `maxLength`) in five paragraphs of
 * distinct words (`w0xxxx w5xxxx …`), so a split must cut it and every word can be found.
 */
export function longParagraphs(capabilities: Capabilities): string[] {
  const { maxLength, chunkLength = maxLength } = capabilities.text;
  const words = Array.from({ length: Math.ceil((chunkLength * 2.5) / 7) }, (_, i) => `w${i}`.padEnd(6, "x"));
  return Array.from({ length: 5 }, (_, p) => words.filter((_, i) => i % 5 === p).join(" "));
}

/** Collapse whitespace runs to one space and trim. */
export function normalize(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The receipt has a degraded entry for this part. */
export function expectDegraded(receipt: DeliveryReceipt, part?: number): void {
  const entries = receipt.degraded.filter((d) => part === undefined || d.part === part);
  expect(entries.length, `degraded entry${part === undefined ? "" : ` for part ${part}`}`).toBeGreaterThan(0);
  for (const d of entries) expect(d.reason, "degraded reason").toMatch(/\S/);
}

/** Where a case takes a fixture from: an https URL, a local file, base64 or a `MEDIA:` line. */
export type Source = "url" | "file" | "base64" | "media-line";

/** A payload carrying one fixture from a source, with optional text (a `MEDIA:` line goes after the text). */
export async function mediaPayload(
  name: FixtureName,
  source: Source,
  text?: string,
): Promise<ReplyPayloadInput> {
  const media = await conformanceMedia();
  const withText = text === undefined ? {} : { text };
  switch (source) {
    case "url":
      return { ...withText, mediaUrls: [media.url(name)] };
    case "file":
      return { ...withText, mediaUrls: [media.file(name)] };
    case "base64":
      return {
        ...withText,
        media: [
          {
            mimeType: fixtures[name].mimeType,
            base64: fixtureBytes(name).toString("base64"),
            fileName: fixtures[name].fileName,
          },
        ],
      };
    case "media-line":
      return { text: `${text ?? ""}\nMEDIA: ${media.url(name)}`.trimStart() };
  }
}

/**
 * Send expecting the send to fail: either `send` rejects or its receipt lists failures.
 * `check` receives the error (the rejection, or the first failure's error).
 */
export async function sendFailing(
  ctx: CaseContext,
  payload: ReplyPayloadInput,
  check: (error: unknown) => void,
  options?: SendOptions,
): Promise<SendResult | undefined> {
  const before = ctx.observe().length;
  let receipt: DeliveryReceipt;
  try {
    receipt = await ctx.adapter.send(payload, ctx.target, options);
  } catch (error) {
    check(error);
    return undefined;
  }
  expect(receipt.ok, "receipt.ok after a failure").toBe(false);
  expect(receipt.failures.length, "failures listed").toBeGreaterThan(0);
  check(receipt.failures[0]?.error);
  return { receipt, observed: ctx.observe().slice(before) };
}
