/**
 * A message activity as the emulator checks it and what the Teams client shows of it:
 * `type: "message"`; `text` with `textFormat` `xml` (Teams' HTML subset) or `plain`; at most
 * the connector's size (UTF-16, inline images excepted); attachments as images (`data:` URI
 * up to the inline limit, or a URL Teams fetches) or a hero card whose button links a file,
 * every linked file fetched and its bytes checked against its declared type; `<at>` a mention
 * only with its `mention` entity. An activity with both text and attachments shows as two
 * messages, as Teams shows it.
 */
import type { ObservedMessage } from "@outbox/core";
import { observedMentions, servedAsSniffed } from "@outbox/core/testing";
import type { Dispatcher } from "undici";
import { INLINE_IMAGE_MAX_BYTES, MAX_ACTIVITY_UTF16_BYTES } from "../../capabilities.js";
import { badArgument, ConnectorError } from "./errors.js";
import { atTags, checkHtml, decodeHtml, decodePlain } from "./html.js";
import { decodeDataUri, type FetchedMedia, fetchMedia } from "./media.js";

/** Largest file Teams fetches for a linked attachment in this emulator. */
const FETCH_MAX_BYTES = 100 * 1024 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Refuse an activity over the connector's size limit: UTF-16 bytes of its JSON, inline images excepted. */
export function checkSize(raw: string): void {
  const withoutImages = raw.replace(/"data:image\/[\w.+-]+;base64,[A-Za-z0-9+/=]*"/g, '""');
  if (2 * withoutImages.length > MAX_ACTIVITY_UTF16_BYTES)
    throw new ConnectorError(413, "MessageSizeTooBig", "The message is too large (RequestEntityTooLarge).");
}

/** The activity's text as Teams shows it, or undefined without text. */
export function readText(activity: Record<string, unknown>): ObservedMessage | undefined {
  const { text, textFormat } = activity;
  if (text === undefined) return undefined;
  if (typeof text !== "string") throw badArgument("text must be a string");
  const format = textFormat ?? "markdown";
  if (format !== "xml" && format !== "plain")
    throw badArgument(`textFormat ${JSON.stringify(format)}: this emulator reads xml and plain`);
  if (format === "xml") checkHtml(text);
  const decoded = format === "xml" ? decodeHtml(text) : decodePlain(text);
  if (decoded.text.trim() === "") throw badArgument("the message shows no text");
  const mentioned = format === "xml" ? mentions(text, activity.entities) : [];
  const observedMentions_ = observedMentions(false, mentioned);
  return {
    kind: "text",
    text: decoded.text,
    lines: decoded.lines,
    ...(decoded.formatting.length > 0 ? { formatting: decoded.formatting } : {}),
    ...(observedMentions_ ? { mentions: observedMentions_ } : {}),
  };
}

/** Users an `<at>` of the text notifies: each needs a `mention` entity naming it by its text. */
function mentions(html: string, entities: unknown): string[] {
  const list = Array.isArray(entities) ? entities.filter(isObject) : [];
  const users: string[] = [];
  for (const tag of atTags(html)) {
    const entity = list.find((e) => e.type === "mention" && e.text === `<at>${tag.text}</at>`);
    const id = isObject(entity?.mentioned) ? entity.mentioned.id : undefined;
    if (typeof id === "string") users.push(id);
  }
  return users;
}

/** How the emulated Teams fetches linked files, and the URLs it fetched, in order. */
export interface LinkFetcher {
  /** The dispatcher fetches go through. */
  dispatcher: Dispatcher;
  /** Every URL fetched so far (what a conformance harness reports as `fetched()`). */
  fetched: string[];
}

/** What each attachment shows, its files fetched. */
export async function readAttachments(
  activity: Record<string, unknown>,
  dispatcher: LinkFetcher,
): Promise<ObservedMessage[]> {
  const { attachments } = activity;
  if (attachments === undefined) return [];
  if (!Array.isArray(attachments) || attachments.length === 0 || !attachments.every(isObject))
    throw badArgument("attachments must be a non-empty array of objects");
  if (attachments.length > 10) throw badArgument("at most 10 attachments");
  const shown: ObservedMessage[] = [];
  for (const attachment of attachments) shown.push(await readAttachment(attachment, dispatcher));
  return shown;
}

async function readAttachment(
  attachment: Record<string, unknown>,
  dispatcher: LinkFetcher,
): Promise<ObservedMessage> {
  const { contentType, contentUrl, content, name } = attachment;
  if (typeof contentType !== "string") throw badArgument("attachment.contentType must be a string");
  if (contentType === "application/vnd.microsoft.card.hero") return readHeroCard(content, dispatcher);
  if (!contentType.startsWith("image/"))
    throw badArgument(`attachment of ${contentType}: Teams shows images and cards from a bot`);
  if (typeof contentUrl !== "string") throw badArgument("an image attachment needs contentUrl");
  const file = contentUrl.startsWith("data:")
    ? decodeDataUri(contentUrl, contentType, INLINE_IMAGE_MAX_BYTES)
    : await fetchLinked(dispatcher, contentUrl);
  checkType(file, contentType);
  return {
    // Teams shows a GIF as an image (animated), not as a kind of its own.
    kind: "image",
    ...(typeof name === "string" ? { fileName: name } : {}),
    mimeType: contentType,
    sha256: file.sha256,
    bytes: file.bytes,
  };
}

/** A hero card linking a file: Teams shows its title and a button; the file is what the link serves. */
async function readHeroCard(content: unknown, dispatcher: LinkFetcher): Promise<ObservedMessage> {
  if (!isObject(content) || typeof content.title !== "string" || !Array.isArray(content.buttons))
    throw badArgument("a hero card needs content.title and content.buttons");
  const button = content.buttons.find((b) => isObject(b) && b.type === "openUrl");
  if (!isObject(button) || typeof button.value !== "string")
    throw badArgument("the card links no file (openUrl button)");
  const file = await fetchLinked(dispatcher, button.value);
  if (!servedAsSniffed(file))
    throw badArgument(`the linked file is served as ${file.mimeType} but its bytes are ${file.sniffed}`);
  return {
    kind: "document",
    fileName: content.title,
    mimeType: file.mimeType,
    sha256: file.sha256,
    bytes: file.bytes,
  };
}

function checkType(file: FetchedMedia, contentType: string): void {
  if (file.sniffed === undefined || !file.sniffed.startsWith("image/"))
    throw badArgument(`contentUrl does not hold an image (${file.sniffed ?? "unknown bytes"})`);
  if (file.sniffed !== contentType)
    throw badArgument(`contentType ${contentType} but the image is ${file.sniffed}`);
}

/** Fetch a linked file as Teams does, recording its URL. */
function fetchLinked(fetcher: LinkFetcher, url: string): Promise<FetchedMedia> {
  fetcher.fetched.push(url);
  return fetchMedia(fetcher.dispatcher, url, FETCH_MAX_BYTES);
}
