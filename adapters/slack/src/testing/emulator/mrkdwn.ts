/**
 * Slack mrkdwn as a Slack client shows it: the visible text (markers, fences and quote
 * prefixes removed, `&amp; &lt; &gt;` decoded, links and mentions shown by their label) and
 * the formatting spans over it. Markers pair on one line only, opening after a word boundary
 * and closing before one; inside code nothing is formatted. Zero-width spaces are dropped.
 * The pairing is core's emulator kit (`decodeStrictMarkers`); this is Slack's dialect.
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

/** Decoded mrkdwn. */
export type DecodedMrkdwn = DecodedMarkers;

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/** Slack's dialect: entities, `&gt;` quotes, `<…>` links and mentions shown by their label. */
const SLACK: MarkerDialect = {
  block: (content) => decodeEntities(content.replace(/^\n/, "").replace(/\n$/, "")),
  quote: /^(?:&gt;|>) ?/,
  inline: tokens,
};

/** Decode stored mrkdwn into what a Slack client shows. */
export function decodeMrkdwn(raw: string): DecodedMrkdwn {
  return decodeStrictMarkers(raw, SLACK);
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** `<…>` links and mentions, entities, and plain characters. */
function tokens(line: string, atoms: MarkerAtom[], spans: MarkerSpan[]): void {
  const token = /<([^<>]*)>|&(?:amp|lt|gt);/g;
  let last = 0;
  const plain = (text: string) => {
    for (const char of text) atoms.push({ char, literal: false });
  };
  for (const match of line.matchAll(token)) {
    plain(line.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[1] === undefined) {
      atoms.push({ char: ENTITIES[match[0]] ?? match[0], literal: true });
      continue;
    }
    const [target = "", label] = match[1].split(/\|(.*)/s);
    const from = atoms.length;
    for (const char of decodeEntities(label ?? mentionLabel(target))) atoms.push({ char, literal: true });
    // Slack links any scheme it is given (`tel:`, `slack:`, an app's own), not only the web's.
    if (/^[a-z][a-z\d+.-]*:/i.test(target))
      spans.push({ kind: "link", from, to: atoms.length, url: decodeEntities(target) });
  }
  plain(line.slice(last));
}

function mentionLabel(target: string): string {
  if (target.startsWith("!subteam^")) return `@${target.slice(9)}`;
  if (target.startsWith("!")) return `@${target.slice(1).split("^")[0]}`;
  return target;
}

/** Slack's notifying tokens: `<@U…>`/`<@W…>` users, `<!subteam^…>` groups, `<!here>`, `<!channel>`, `<!everyone>`. */
const MENTION = /<(?:@([UW][A-Z0-9]+)|!subteam\^([A-Z0-9]+)|!(here|channel|everyone))(?:\|[^<>]*)?>/g;

/** Whom stored mrkdwn (or `markdown_text`) notifies, as Slack reads its tokens; `undefined` when nobody. */
export function mrkdwnMentions(raw: string): ObservedMentions | undefined {
  let everyone = false;
  const users = new Set<string>();
  for (const [, user, group, special] of raw.matchAll(MENTION)) {
    if (special !== undefined) everyone = true;
    const id = user ?? group;
    if (id !== undefined) users.add(id);
  }
  return observedMentions(everyone, users);
}
