/**
 * A message's `cardsV2` as the emulator checks it and what the Chat client shows of it
 * ("Cards v2" reference): each entry `{ cardId, card: { sections: [{ widgets }] } }`, the
 * widgets this emulator knows (`image`, `decoratedText`, `buttonList`, `textParagraph`,
 * `divider`; any other is refused rather than guessed at). An `image` widget's `imageUrl` is
 * fetched as Chat fetches it and must hold a PNG, JPEG or GIF; a card whose button opens a
 * link shows as a file: the link is fetched and its bytes checked against the type it is
 * served as. Google asks for a public https URL: plain http is taken from 127.0.0.1 only,
 * where the emulated media host runs.
 */
import type { ObservedMessage } from "@outbox/core";
import { unescapeHtml } from "@outbox/core";
import { fetchLinkedFile, type LinkedFile, LinkedFileError, servedAsSniffed } from "@outbox/core/testing";
import type { Dispatcher } from "undici";
import { invalidArgument } from "./errors.js";

/** Largest file the emulated Chat fetches for a card. */
const FETCH_MAX_BYTES = 100 * 1024 * 1024;
/** The image types a card's image widget shows. */
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif"];
const WIDGETS = ["image", "decoratedText", "buttonList", "textParagraph", "divider"];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** How the emulated Chat fetches linked files, and the URLs it fetched, in order. */
export interface LinkFetcher {
  /** The dispatcher fetches go through. */
  dispatcher: Dispatcher;
  /** Every URL fetched so far. */
  fetched: string[];
}

/** What each card shows, its links fetched. */
export async function readCards(cards: unknown, fetcher: LinkFetcher): Promise<ObservedMessage[]> {
  if (!Array.isArray(cards) || cards.length === 0 || !cards.every(isObject))
    throw invalidArgument("cardsV2 must be a non-empty array of objects");
  if (cards.length > 100) throw invalidArgument("at most 100 cards in a message");
  const shown: ObservedMessage[] = [];
  for (const entry of cards) shown.push(await readCard(entry, fetcher));
  return shown;
}

async function readCard(entry: Record<string, unknown>, fetcher: LinkFetcher): Promise<ObservedMessage> {
  if (typeof entry.cardId !== "string" || entry.cardId === "")
    throw invalidArgument("cardsV2[].cardId is required");
  const sections = isObject(entry.card) ? entry.card.sections : undefined;
  if (!Array.isArray(sections) || sections.length === 0) throw invalidArgument("card.sections is required");
  const widgets = sections.flatMap((section) =>
    isObject(section) && Array.isArray(section.widgets) ? section.widgets : [],
  );
  if (widgets.length === 0) throw invalidArgument("a card needs at least one widget");
  for (const widget of widgets) {
    const names = isObject(widget) ? Object.keys(widget).filter((key) => key !== "horizontalAlignment") : [];
    if (names.length !== 1 || !WIDGETS.includes(names[0] as string))
      throw invalidArgument(`widget ${JSON.stringify(names)}: one of ${WIDGETS.join(", ")} expected`);
  }
  const image = widgets.find((w) => isObject(w) && isObject(w.image))?.image as
    | Record<string, unknown>
    | undefined;
  if (image !== undefined) {
    if (typeof image.imageUrl !== "string") throw invalidArgument("image.imageUrl is required");
    const file = await fetchFor(fetcher, image.imageUrl, "image.imageUrl");
    if (file.sniffed === undefined || !IMAGE_TYPES.includes(file.sniffed))
      throw invalidArgument(
        `image.imageUrl does not hold a PNG, JPEG or GIF (${file.sniffed ?? "unknown bytes"})`,
      );
    return {
      kind: "image",
      ...(typeof image.altText === "string" ? { fileName: image.altText } : {}),
      mimeType: file.sniffed,
      sha256: file.sha256,
      bytes: file.bytes,
    };
  }
  const link = widgets
    .flatMap((w) =>
      isObject(w) && isObject(w.buttonList) && Array.isArray(w.buttonList.buttons)
        ? w.buttonList.buttons
        : [],
    )
    .map((b) =>
      isObject(b) && isObject(b.onClick) && isObject(b.onClick.openLink) ? b.onClick.openLink.url : undefined,
    )
    .find((url) => typeof url === "string") as string | undefined;
  const title = widgets.find((w) => isObject(w) && isObject(w.decoratedText))?.decoratedText as
    | Record<string, unknown>
    | undefined;
  if (link === undefined || typeof title?.text !== "string")
    throw invalidArgument(
      "this emulator shows a card as an image or as a file: decoratedText and a button opening its link",
    );
  const file = await fetchFor(fetcher, link, "openLink.url");
  if (!servedAsSniffed(file))
    throw invalidArgument(`the linked file is served as ${file.mimeType} but its bytes are ${file.sniffed}`);
  return {
    kind: "document",
    fileName: unescapeHtml(title.text),
    mimeType: file.mimeType,
    sha256: file.sha256,
    bytes: file.bytes,
  };
}

/** Fetch a card's link as Chat does, recording it. */
async function fetchFor(fetcher: LinkFetcher, url: string, field: string): Promise<LinkedFile> {
  if (!url.startsWith("https://") && !/^http:\/\/127\.0\.0\.1[:/]/.test(url))
    throw invalidArgument(`${field} must be a public https URL`);
  fetcher.fetched.push(url);
  try {
    return await fetchLinkedFile(fetcher.dispatcher, url, FETCH_MAX_BYTES);
  } catch (error) {
    throw error instanceof LinkedFileError ? invalidArgument(`${field}: ${error.message}`) : error;
  }
}
