/**
 * One stored message → its `<article>` on the page (the DOM contract in docs/adapters/web.md).
 * Shared by the page (history) and the event stream (live), so both show the same markup.
 * Stored HTML is sanitized again here: a custom store may hold anything.
 */

import { escapeHtml } from "@outbox/core";
import { decodeHtml } from "../render/decode-html.js";
import { DEFAULT_EMBED_PATHS, embedLinkHref, embedSource } from "../render/embed-policy.js";
import { sanitizeHtml } from "../render/sanitize.js";
import type { WebMedia, WebMessage } from "../store/types.js";

const QUOTE_LENGTH = 140;
const DEFAULT_EMBED_HEIGHT = 320;

/**
 * Render a message; `quoted` is the message it replies to, when the store holds it;
 * `embedPaths` the root-relative prefixes a canvas may be framed from (default the canvas prefix).
 */
export function renderArticle(
  message: WebMessage,
  quoted?: WebMessage,
  embedPaths: readonly string[] = DEFAULT_EMBED_PATHS,
): string {
  const attributes = [
    `class="ob-message"`,
    attr("data-id", message.id),
    attr("data-kind", message.kind),
    attr("data-author", message.author),
    message.replyTo === undefined ? "" : attr("data-reply-to", message.replyTo),
    message.thread === undefined ? "" : attr("data-thread", message.thread),
  ].filter((part) => part !== "");
  const parts = [
    message.replyTo === undefined ? "" : replyReference(message.replyTo, quoted),
    media(message),
    message.html === undefined || message.html === ""
      ? ""
      : `<div class="ob-text">${sanitizeHtml(message.html)}</div>`,
    message.embed === undefined ? "" : embed(message.embed, embedPaths),
  ];
  return `<article ${attributes.join(" ")}>${parts.join("")}</article>`;
}

function attr(name: string, value: string | number): string {
  return `${name}="${escapeHtml(String(value))}"`;
}

/** The start of a message, as quoted in a reply reference. */
export function quoteOf(message: WebMessage): string {
  const text = message.html === undefined ? "" : decodeHtml(message.html).text.replace(/\s+/g, " ");
  const shown =
    text !== ""
      ? text
      : (message.media?.map((item) => item.fileName).join(", ") ?? message.embed?.title ?? "");
  return shown.length > QUOTE_LENGTH ? `${shown.slice(0, QUOTE_LENGTH - 1)}…` : shown;
}

function replyReference(replyTo: string, quoted: WebMessage | undefined): string {
  const quote = quoted === undefined ? "(earlier message)" : quoteOf(quoted);
  return `<blockquote class="ob-reply-ref" ${attr("data-reply-to", replyTo)}>${escapeHtml(quote)}</blockquote>`;
}

function media(message: WebMessage): string {
  const items = message.media ?? [];
  if (items.length === 0) return "";
  const figures = items.map(figure).join("");
  return message.kind === "album" ? `<div class="ob-gallery">${figures}</div>` : figures;
}

function figure(item: WebMedia): string {
  const src = `media/${encodeURIComponent(item.sha256)}`;
  const attributes = [
    `class="ob-media"`,
    attr("data-kind", item.kind),
    attr("data-name", item.fileName),
    attr("data-mime", item.mimeType),
    attr("data-sha256", item.sha256),
    attr("data-bytes", item.bytes),
    item.durationMs === undefined ? "" : attr("data-duration-ms", item.durationMs),
  ].filter((part) => part !== "");
  const name = escapeHtml(item.fileName);
  const body =
    item.kind === "image"
      ? `<img src="${src}" alt="${name}" loading="lazy"${size(item)}>`
      : item.kind === "video"
        ? `<video controls preload="metadata" src="${src}"></video>`
        : item.kind === "document"
          ? `<a class="ob-download" download="${name}" href="${src}">${name}</a>`
          : `<audio controls preload="metadata" src="${src}"></audio><figcaption>${name}${duration(item)}</figcaption>`;
  return `<figure ${attributes.join(" ")}>${body}</figure>`;
}

function size(item: WebMedia): string {
  return item.width !== undefined && item.height !== undefined
    ? ` width="${item.width}" height="${item.height}"`
    : "";
}

function duration(item: WebMedia): string {
  if (item.durationMs === undefined) return "";
  const seconds = Math.round(item.durationMs / 1000);
  return ` · ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function embed(preview: NonNullable<WebMessage["embed"]>, paths: readonly string[]): string {
  const title = preview.title ?? "Canvas";
  const source = embedSource(preview.url, paths);
  if (source === undefined) {
    const href = embedLinkHref(preview.url);
    return `<a class="ob-embed-link"${href === undefined ? "" : ` ${attr("href", href)} rel="noopener noreferrer nofollow" target="_blank"`}>${escapeHtml(`${title}: ${preview.url}`)}</a>`;
  }
  const wanted = preview.preferredHeight;
  const height =
    typeof wanted === "number" && Number.isFinite(wanted)
      ? Math.min(1200, Math.max(160, Math.round(wanted)))
      : DEFAULT_EMBED_HEIGHT;
  return `<figure class="ob-embed"><iframe sandbox="allow-scripts" ${attr("src", source)} ${attr("height", height)} ${attr("title", title)} loading="lazy" referrerpolicy="no-referrer"></iframe></figure>`;
}
