/**
 * Telegram's stored entities as the conformance suite's formatting spans: what a Telegram
 * client would show, decoded from the entities the emulator's HTML parser produced.
 */
import type { ObservedFormat, ObservedFormatKind, ObservedMentions } from "@outbox/core";
import { observedMentions as mentioning } from "@outbox/core/testing";
import type { TextEntity } from "./html-entities.js";

/** Bot API entity type → span kind; types with no span kind (underline, custom emoji) are left out. */
const KIND_OF: Record<string, ObservedFormatKind> = {
  bold: "bold",
  italic: "italic",
  strikethrough: "strike",
  code: "code",
  pre: "pre",
  text_link: "link",
  spoiler: "spoiler",
  blockquote: "quote",
  expandable_blockquote: "quote",
};

/** The formatting spans of stored entities, in order of offset (`[]` when plain). */
export function observedFormatting(entities: readonly TextEntity[]): ObservedFormat[] {
  const spans: ObservedFormat[] = [];
  for (const entity of entities) {
    const kind = KIND_OF[entity.type];
    if (kind === undefined) continue;
    spans.push({
      kind,
      offset: entity.offset,
      length: entity.length,
      ...(kind === "pre" && entity.language ? { language: entity.language } : {}),
      ...(kind === "link" && entity.url !== undefined ? { url: entity.url } : {}),
    });
  }
  return spans.sort((a, b) => a.offset - b.offset);
}

/** A `tg://user?id=…` link: Telegram turns it into a mention of that user, who is notified. */
const USER_LINK = /^tg:\/\/user\?(?:[^#]*&)?id=(\d+)/i;

/** Whom stored entities notify: each `text_link` to `tg://user?id=…` (Telegram makes it a mention); `undefined` when nobody. */
export function observedMentions(entities: readonly TextEntity[]): ObservedMentions | undefined {
  const users = new Set<string>();
  for (const entity of entities) {
    const id = entity.type === "text_link" ? USER_LINK.exec(entity.url ?? "")?.[1] : undefined;
    if (id !== undefined) users.add(id);
  }
  return mentioning(false, users);
}
