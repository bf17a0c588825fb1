/**
 * A message's `text` as the Google Chat client shows it ("Format messages"): `*bold*`,
 * `_italic_`, `~strike~`, `` `code` `` and ```` ``` ```` blocks, paired by core's strict
 * marker decoder; `<url|label>` a link shown by its label; `<users/{id}>` a mention shown as
 * `@{id}` and `<users/all>` one of everyone; a bare http(s) address a link, its characters
 * never markers. Chat documents no escape and no quote markup: `>` shows as typed, and a
 * `<` followed by anything else than a token is text. Zero-width spaces are not shown.
 */
import type { ObservedMentions } from "@outbox/core";
import {
  type DecodedMarkers,
  decodeStrictMarkers,
  type MarkerAtom,
  type MarkerDialect,
  type MarkerSpan,
  observedMentions,
} from "@outbox/core/testing";

/** Chat's dialect: no quotes, `<…>` tokens, bare addresses linked. */
const GOOGLE_CHAT: MarkerDialect = {
  block: (content) => content.replace(/^\n/, "").replace(/\n$/, ""),
  // No quote markup: a pattern that never matches.
  quote: /(?!)/,
  inline: tokens,
};

/** Decode stored text into what the Chat client shows. */
export function decodeChatText(raw: string): DecodedMarkers {
  return decodeStrictMarkers(raw, GOOGLE_CHAT);
}

const TOKEN = /<(users\/[^<>|\s]+|(?:https?:|mailto:)[^<>|\s]*\|[^<>]*)>|https?:\/\/[^\s<>|]+/g;

function tokens(line: string, atoms: MarkerAtom[], spans: MarkerSpan[]): void {
  let last = 0;
  const plain = (text: string) => {
    for (const char of text) atoms.push({ char, literal: false });
  };
  for (const match of line.matchAll(TOKEN)) {
    plain(line.slice(last, match.index));
    last = match.index + match[0].length;
    const inner = match[1];
    const from = atoms.length;
    if (inner === undefined) {
      for (const char of match[0]) atoms.push({ char, literal: true });
      spans.push({ kind: "link", from, to: atoms.length, url: match[0] });
      continue;
    }
    if (inner.startsWith("users/")) {
      for (const char of `@${inner.slice(6)}`) atoms.push({ char, literal: true });
      continue;
    }
    const bar = inner.indexOf("|");
    for (const char of inner.slice(bar + 1)) atoms.push({ char, literal: false });
    spans.push({ kind: "link", from, to: atoms.length, url: inner.slice(0, bar) });
  }
  plain(line.slice(last));
}

/** Whom stored text notifies: `<users/{id}>` users, `<users/all>` everyone; `undefined` when nobody. */
export function chatMentions(raw: string): ObservedMentions | undefined {
  let everyone = false;
  const users = new Set<string>();
  for (const [, id] of raw.matchAll(/<users\/([^<>|\s]+)>/g)) {
    if (id === "all") everyone = true;
    else if (id !== undefined) users.add(id);
  }
  return observedMentions(everyone, users);
}
