/**
 * Decode a snapshot of the rendered inbox into what the conformance suite compares: one
 * {@link InboxMessage} per `article.ob-message`, read from the DOM contract of the page
 * (docs/adapters/web.md). The media facts come from the bytes the browser fetched when the
 * snapshot probed them, else from the figure's data attributes.
 */
import type { ObservedMessage } from "@outbox/core";
import { readRichText } from "./rich-text.js";
import { type DomElement, findAll, findFirst, hasClass, isElement } from "./snapshot.js";

/** Message kinds the page marks with `data-kind`. */
export type InboxKind = ObservedMessage["kind"] | "embed";

/** An embed as the page shows it: a sandboxed frame, or a plain link when the policy refused the URL. */
export interface InboxEmbed {
  /** `frame` for an `iframe`, `link` for `a.ob-embed-link`. */
  shown: "frame" | "link";
  /** The frame's `src` or the link's `href`. */
  url: string;
  /** The frame's `sandbox` attribute (frames only). */
  sandbox?: string;
  /** The frame's `height` attribute, in px (frames only). */
  height?: number;
  /** The frame's `title`, or the link's text. */
  title?: string;
}

/** One message of the rendered page. */
export interface InboxMessage extends Omit<ObservedMessage, "kind" | "items"> {
  /** The message id (`data-id`). */
  id: string;
  /** What the page shows (`data-kind`). */
  kind: InboxKind;
  /** Album members, in order. */
  items?: InboxMessage[];
  /** Embeds the message shows. */
  embeds?: InboxEmbed[];
  /** Who wrote it (`data-author`: `assistant`, or `user` for an inbound message), when the page says. */
  author?: string;
  /** Voice duration from `data-duration-ms`, when the page shows one. */
  durationMs?: number;
  /** Where the media element loads from (probe or element attribute). */
  src?: string;
  /** HTTP status the browser got for the media (probed snapshots only). */
  status?: number;
}

const KINDS: readonly InboxKind[] = [
  "text",
  "image",
  "animation",
  "video",
  "audio",
  "voice",
  "document",
  "album",
  "embed",
];

/**
 * Decode every `article.ob-message` under the snapshot root, in document order. What the
 * browser does not render (an article or a media figure with `display: none`) is not seen,
 * so it is not decoded.
 */
export function decodeInbox(root: DomElement | null): InboxMessage[] {
  if (!root) return [];
  return findAll(root, (el) => el.tag === "article" && hasClass(el, "ob-message") && el.rendered).map(
    decodeArticle,
  );
}

/** Decode one `article.ob-message`. */
export function decodeArticle(article: DomElement): InboxMessage {
  const kind = KINDS.find((k) => k === article.attrs["data-kind"]);
  if (!kind)
    throw new Error(`article ${article.attrs["data-id"]}: unknown data-kind "${article.attrs["data-kind"]}"`);
  const message: InboxMessage = { id: article.attrs["data-id"] ?? "", kind };
  const author = article.attrs["data-author"];
  if (author !== undefined) message.author = author;
  const replyTo = article.attrs["data-reply-to"];
  if (replyTo !== undefined) message.replyTo = replyTo;
  const thread = article.attrs["data-thread"];
  if (thread !== undefined) message.thread = thread;
  const notQuoted = (el: DomElement) => el.tag === "blockquote" && hasClass(el, "ob-reply-ref");
  const textBlock = findFirst(article, (el) => hasClass(el, "ob-text"), notQuoted);
  if (textBlock?.rendered) {
    const { text, formatting } = readRichText(textBlock);
    if (kind === "text" || kind === "embed") message.text = text;
    else if (text !== "") message.caption = text;
    if (formatting.length > 0) message.formatting = formatting;
  }
  if (kind === "album") {
    const gallery = findFirst(article, (el) => hasClass(el, "ob-gallery"));
    message.items = gallery ? findAll(gallery, (el) => isMediaFigure(el)).map(decodeFigure) : [];
  } else if (kind !== "text" && kind !== "embed") {
    const figure = findFirst(article, isMediaFigure, notQuoted);
    if (figure) Object.assign(message, decodeFigure(figure), { id: message.id, kind: message.kind });
  }
  const embeds = findAll(article, (el) => hasClass(el, "ob-embed") || hasClass(el, "ob-embed-link")).flatMap(
    decodeEmbed,
  );
  if (embeds.length > 0) message.embeds = embeds;
  return message;
}

/** A rendered `figure.ob-media`. */
function isMediaFigure(element: DomElement): boolean {
  return element.tag === "figure" && hasClass(element, "ob-media") && element.rendered;
}

/** Decode a `figure.ob-media` (an album member, or the media of a message). */
function decodeFigure(figure: DomElement): InboxMessage {
  const kind = KINDS.find((k) => k === figure.attrs["data-kind"]) ?? "document";
  const item: InboxMessage = { id: figure.attrs["data-id"] ?? "", kind };
  const name = figure.attrs["data-name"];
  if (name !== undefined) item.fileName = name;
  const mime = figure.attrs["data-mime"];
  if (mime !== undefined) item.mimeType = mime;
  const probe = figure.probe;
  const sha256 = probe?.sha256 ?? figure.attrs["data-sha256"];
  if (sha256 !== undefined) item.sha256 = sha256;
  const bytes = probe?.bytes ?? numberAttr(figure, "data-bytes");
  if (bytes !== undefined) item.bytes = bytes;
  const duration = numberAttr(figure, "data-duration-ms");
  if (duration !== undefined) item.durationMs = duration;
  const source = findFirst(
    figure,
    (el) =>
      (["img", "video", "audio", "source"].includes(el.tag) && el.attrs.src !== undefined) ||
      (el.tag === "a" && hasClass(el, "ob-download")),
  );
  const src = probe?.src ?? source?.attrs.src ?? source?.attrs.href;
  if (src !== undefined) item.src = src;
  if (probe) item.status = probe.status;
  return item;
}

/** Decode a `figure.ob-embed` (its iframe) or an `a.ob-embed-link`. */
function decodeEmbed(element: DomElement): InboxEmbed[] {
  if (element.tag === "a") {
    const title = plainText(element);
    return [{ shown: "link", url: element.attrs.href ?? "", ...(title ? { title } : {}) }];
  }
  return findAll(element, (el) => el.tag === "iframe").map((frame) => {
    const embed: InboxEmbed = { shown: "frame", url: frame.attrs.src ?? "" };
    if (frame.attrs.sandbox !== undefined) embed.sandbox = frame.attrs.sandbox;
    const height = numberAttr(frame, "height");
    if (height !== undefined) embed.height = height;
    if (frame.attrs.title !== undefined) embed.title = frame.attrs.title;
    return embed;
  });
}

/** The text of an element, whitespace collapsed. */
function plainText(element: DomElement): string {
  const parts: string[] = [];
  const visit = (el: DomElement): void => {
    for (const child of el.children)
      if (isElement(child)) visit(child);
      else parts.push(child.text);
  };
  visit(element);
  return parts.join("").replace(/\s+/g, " ").trim();
}

function numberAttr(element: DomElement, name: string): number | undefined {
  const value = element.attrs[name];
  if (value === undefined || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * The page's messages as the conformance suite's {@link ObservedMessage}s: page-only fields
 * dropped; an embed-only message has no `ObservedMessage` kind, so it is left out (the suite
 * never sends embeds; {@link decodeInbox} keeps them).
 */
export function toObserved(messages: InboxMessage[]): ObservedMessage[] {
  return messages.filter((m) => m.kind !== "embed").map(observedOf);
}

function observedOf(message: InboxMessage): ObservedMessage {
  const {
    id: _id,
    author: _author,
    embeds: _embeds,
    durationMs: _duration,
    src: _src,
    status: _status,
    items,
    kind,
    ...rest
  } = message;
  const observed: ObservedMessage = { ...rest, kind: kind === "embed" ? "text" : kind };
  if (items) observed.items = items.map(observedOf);
  return observed;
}
