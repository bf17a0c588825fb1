/**
 * A strict parser for Telegram's `parse_mode: "HTML"`, written independently of the
 * adapter's renderer so that it checks it. Error tails follow Telegram's (tdlib's) wording;
 * positions are byte offsets into the UTF-8 source, as Telegram reports them.
 */

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

const TAG_TYPES: Record<string, string> = {
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
};

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

interface OpenTag {
  name: string;
  type: string;
  start: number;
  attrs: Map<string, string>;
}

/** Parse Telegram HTML strictly; throws {@link EntityParseError} where Telegram would answer 400. */
export function parseTelegramHtml(html: string): ParsedText {
  const parser = new HtmlParser(html);
  return parser.run();
}

class HtmlParser {
  private i = 0;
  private text = "";
  private readonly stack: OpenTag[] = [];
  private readonly entities: TextEntity[] = [];

  constructor(private readonly src: string) {}

  run(): ParsedText {
    const src = this.src;
    while (this.i < src.length) {
      const c = src[this.i];
      if (c === "&") this.text += this.entity();
      else if (c === "<" && src[this.i + 1] === "/") this.endTag();
      else if (c === "<") this.startTag();
      else {
        this.text += c;
        this.i++;
      }
    }
    const open = this.stack.at(-1);
    if (open) throw new EntityParseError(`Can't find end tag corresponding to start tag "${open.name}"`);
    this.entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
    return { text: this.text, entities: this.entities };
  }

  private byteOffset(at = this.i): number {
    return Buffer.byteLength(this.src.slice(0, at));
  }

  private fail(message: string, at = this.i): never {
    throw new EntityParseError(`${message} at byte offset ${this.byteOffset(at)}`);
  }

  private entity(): string {
    const decoded = decodeEntityAt(this.src, this.i);
    if (!decoded) this.fail("Unsupported HTML entity");
    this.i += decoded.length;
    return decoded.value;
  }

  private name(): string {
    const match = /^[a-zA-Z0-9-]+/.exec(this.src.slice(this.i, this.i + 64));
    const name = match?.[0] ?? "";
    this.i += name.length;
    return name.toLowerCase();
  }

  private skipSpace(): void {
    while (/\s/.test(this.src[this.i] ?? "")) this.i++;
  }

  private startTag(): void {
    const at = this.i;
    this.i++;
    const name = this.name();
    if (name === "") this.fail("Unexpected end of name token", at);
    const type = TAG_TYPES[name];
    if (!type) this.fail(`Unsupported start tag "${name}"`, at);
    const attrs = this.attributes(name, at);
    this.checkNesting(name, attrs, at);
    this.stack.push({ name, type, start: this.text.length, attrs });
  }

  private attributes(tag: string, at: number): Map<string, string> {
    const attrs = new Map<string, string>();
    for (;;) {
      this.skipSpace();
      const c = this.src[this.i];
      if (c === undefined) this.fail("Unclosed start tag", at);
      if (c === ">") {
        this.i++;
        return attrs;
      }
      const attr = this.name();
      if (attr === "") this.fail(`Empty attribute name in the tag "${tag}"`);
      this.skipSpace();
      if (this.src[this.i] !== "=") {
        attrs.set(attr, "");
        continue;
      }
      this.i++;
      this.skipSpace();
      attrs.set(attr, this.attributeValue(tag, at));
    }
  }

  private attributeValue(tag: string, at: number): string {
    const quote = this.src[this.i];
    let raw: string;
    if (quote === '"' || quote === "'") {
      const end = this.src.indexOf(quote, this.i + 1);
      if (end < 0) this.fail("Unclosed start tag", at);
      raw = this.src.slice(this.i + 1, end);
      this.i = end + 1;
    } else {
      const match = /^[^\s>]+/.exec(this.src.slice(this.i));
      if (!match) this.fail(`Expected equal sign in declaration of an attribute of the tag "${tag}"`);
      raw = match[0];
      this.i += raw.length;
    }
    return decodeAttribute(raw, () => this.fail("Unsupported HTML entity in an attribute value", at));
  }

  private checkNesting(name: string, attrs: Map<string, string>, at: number): void {
    const parent = this.stack.at(-1);
    const inCode = this.stack.find((t) => t.type === "code" || t.type === "pre");
    const codeInPre = name === "code" && parent?.type === "pre" && parent.start === this.text.length;
    if (inCode && !codeInPre) this.fail(`Entity "${name}" can't be nested inside "${inCode.name}"`, at);
    if (name === "blockquote" && this.stack.some((t) => t.type === "blockquote")) {
      this.fail('Entity "blockquote" can\'t be nested inside "blockquote"', at);
    }
    if (name === "span" && attrs.get("class") !== "tg-spoiler") this.fail('Unsupported start tag "span"', at);
    if (name === "tg-emoji" && !/^\d+$/.test(attrs.get("emoji-id") ?? "")) {
      this.fail('Tag "tg-emoji" must have attribute "emoji-id"', at);
    }
  }

  private endTag(): void {
    const at = this.i;
    this.i += 2;
    const name = this.name();
    this.skipSpace();
    if (this.src[this.i] !== ">") this.fail("Unclosed end tag", at);
    this.i++;
    const open = this.stack.pop();
    if (!open) this.fail("Unexpected end tag", at);
    if (open.name !== name) {
      const where = `at byte offset ${this.byteOffset(at)}`;
      throw new EntityParseError(
        `Unmatched end tag ${where}, expected "</${open.name}>", found "</${name}>"`,
      );
    }
    this.close(open);
  }

  private close(open: OpenTag): void {
    const length = this.text.length - open.start;
    if (length === 0) return;
    const entity: TextEntity = { type: open.type, offset: open.start, length };
    if (open.type === "text_link") {
      const href = open.attrs.get("href");
      if (!href) return;
      entity.url = href;
    }
    if (open.type === "blockquote" && open.attrs.has("expandable")) entity.type = "expandable_blockquote";
    const parent = this.stack.at(-1);
    if (open.type === "code" && parent?.type === "pre") {
      // <pre><code class="language-x"> is one pre entity with a language.
      const language = /^language-(.+)$/.exec(open.attrs.get("class") ?? "")?.[1];
      if (language) parent.attrs.set("language", language);
      return;
    }
    const language = open.type === "pre" ? open.attrs.get("language") : undefined;
    if (language) entity.language = language;
    this.entities.push(entity);
  }
}

function decodeEntityAt(src: string, at: number): { value: string; length: number } | undefined {
  const match = /^&(?:([a-zA-Z]+)|#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6}));/.exec(src.slice(at, at + 12));
  if (!match) return undefined;
  const [whole, named, dec, hex] = match;
  if (named !== undefined) {
    const value = NAMED[named];
    return value === undefined ? undefined : { value, length: whole.length };
  }
  const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? "", 16);
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
  return { value: String.fromCodePoint(code), length: whole.length };
}

function decodeAttribute(raw: string, onError: () => never): string {
  let out = "";
  for (let i = 0; i < raw.length; ) {
    if (raw[i] !== "&") {
      out += raw[i];
      i++;
      continue;
    }
    const decoded = decodeEntityAt(raw, i) ?? onError();
    out += decoded.value;
    i += decoded.length;
  }
  return out;
}
