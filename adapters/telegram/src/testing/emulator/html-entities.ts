/**
 * Telegram's `parse_mode: "HTML"`, on the kit's strict HTML parser, written independently of
 * the adapter's renderer so that it checks it: Telegram's tags, its nesting and attribute
 * rules, and its entities as the Bot API returns them. Error tails follow Telegram's
 * (tdlib's) wording; positions are byte offsets into the UTF-8 source, as Telegram reports them.
 */
import { parseStrictHtml, type StrictHtmlDialect, StrictHtmlError } from "@outbox/core/testing";

/** One formatting entity of a parsed message, offsets and lengths in UTF-16 code units. */
export interface TextEntity {
  /** Entity type as the Bot API names it. */
  type: string;
  /** Start, in UTF-16 code units of the visible text. */
  offset: number;
  /** Length, in UTF-16 code units. */
  length: number;
  /** Link target of a `text_link`. */
  url?: string;
  /** Language of a `pre` block. */
  language?: string;
}

/** Visible text and entities after Telegram's parsing. */
export interface ParsedText {
  /** The text a user sees, markup removed and entities decoded. */
  text: string;
  /** Formatting entities. */
  entities: TextEntity[];
}

/** Markup Telegram refuses; `message` is the tail after "can't parse entities: ". */
export class EntityParseError extends Error {}

const TELEGRAM_HTML: StrictHtmlDialect<string> = {
  tags: {
    b: "bold",
    strong: "bold",
    i: "italic",
    em: "italic",
    u: "underline",
    ins: "underline",
    s: "strikethrough",
    strike: "strikethrough",
    del: "strikethrough",
    "tg-spoiler": "spoiler",
    span: "spoiler",
    code: "code",
    pre: "pre",
    a: "text_link",
    blockquote: "blockquote",
    "tg-emoji": "custom_emoji",
  },
  refuse(name, attrs, open, offset) {
    const parent = open.at(-1);
    const inCode = open.find((t) => t.type === "code" || t.type === "pre");
    const codeInPre = name === "code" && parent?.type === "pre" && parent.start === offset;
    if (inCode && !codeInPre) return `Entity "${name}" can't be nested inside "${inCode.name}"`;
    if (name === "blockquote" && open.some((t) => t.type === "blockquote"))
      return 'Entity "blockquote" can\'t be nested inside "blockquote"';
    if (name === "span" && attrs.get("class") !== "tg-spoiler") return 'Unsupported start tag "span"';
    if (name === "tg-emoji" && !/^\d+$/.test(attrs.get("emoji-id") ?? ""))
      return 'Tag "tg-emoji" must have attribute "emoji-id"';
    return undefined;
  },
};

/** Parse Telegram HTML strictly; throws {@link EntityParseError} where Telegram would answer 400. */
export function parseTelegramHtml(html: string): ParsedText {
  let parsed: ReturnType<typeof parseStrictHtml<string>>;
  try {
    parsed = parseStrictHtml(html, TELEGRAM_HTML);
  } catch (error) {
    throw error instanceof StrictHtmlError ? new EntityParseError(error.reason) : error;
  }
  const entities: TextEntity[] = [];
  for (const { type, offset, length, attrs } of parsed.spans) {
    const entity: TextEntity = { type, offset, length };
    const href = attrs.get("href");
    const language = attrs.get("language");
    // A link without a target is no entity; `<blockquote expandable>` is its own type.
    if (type === "text_link") {
      if (!href) continue;
      entity.url = href;
    }
    if (type === "blockquote" && attrs.has("expandable")) entity.type = "expandable_blockquote";
    if (type === "pre" && language) entity.language = language;
    entities.push(entity);
  }
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text: parsed.text, entities };
}
