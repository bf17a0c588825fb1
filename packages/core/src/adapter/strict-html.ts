/**
 * The emulator kit's HTML decoder: a strict HTML dialect as chat platforms parse it
 * (Telegram's `parse_mode: HTML`, the reference platform), decoded into the visible text and
 * its spans. Only the dialect's tags and the entities `&lt; &gt; &amp; &quot;` and `&#…;`
 * are accepted; anything else, an unbalanced tag, or a tag the dialect's own rules refuse is
 * refused as Telegram (tdlib) words it, at a byte offset into the UTF-8 source.
 * `<code class="language-x">` directly inside `<pre>` gives the `pre` span's `language`.
 */
import type { ObservedFormat, ObservedFormatKind } from "./observed.js";

/** Markup the dialect refuses: `reason` is what follows "can't parse entities: ". */
export class StrictHtmlError extends Error {
  /** The refusal in tdlib's words, with its byte offset (`Unsupported start tag "x" at byte offset 2`). */
  readonly reason: string;

  constructor(reason: string) {
    super(`can't parse entities: ${reason}`);
    this.name = "StrictHtmlError";
    this.reason = reason;
  }
}

/** A tag still open where another opens, for {@link StrictHtmlDialect.refuse}. */
export interface StrictHtmlOpenTag<T extends string = string> {
  /** Tag name, lower case. */
  name: string;
  /** The span type the dialect gives it. */
  type: T;
  /** Offset in the visible text where its content starts. */
  start: number;
  /** Its decoded attributes (`pre` gains `language` from a `code` inside it). */
  attrs: Map<string, string>;
}

/** A strict HTML dialect: its tags and the rules it adds. */
export interface StrictHtmlDialect<T extends string> {
  /** Tag name → the span type it shows (`b: "bold"`); any other tag is refused. */
  tags: Readonly<Record<string, T>>;
  /**
   * Why the platform refuses tag `name` opening here (`Entity "b" can't be nested inside
   * "code"`), or `undefined`; `open` are the tags around it, innermost last, `offset` where
   * its content would start. The decoder adds the byte offset.
   */
  refuse?(
    name: string,
    attrs: ReadonlyMap<string, string>,
    open: readonly StrictHtmlOpenTag<T>[],
    offset: number,
  ): string | undefined;
}

/** One span of decoded markup, over the visible text in UTF-16 code units. */
export interface StrictHtmlSpan<T extends string> {
  /** The dialect's type of its tag. */
  type: T;
  /** Start in the visible text. */
  offset: number;
  /** Length, never 0 (empty tags leave no span). */
  length: number;
  /** Its tag's decoded attributes. */
  attrs: ReadonlyMap<string, string>;
}

/** Visible text and the spans of strict markup, spans in the order their tags close. */
export interface StrictHtml<T extends string> {
  /** What the platform shows. */
  text: string;
  /** One per non-empty tag, except a `<code>` directly inside `<pre>` (its language goes to the `pre`). */
  spans: StrictHtmlSpan<T>[];
}

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/** Parse `html` in `dialect`; throws {@link StrictHtmlError} where the platform answers 400. */
export function parseStrictHtml<T extends string>(
  html: string,
  dialect: StrictHtmlDialect<T>,
): StrictHtml<T> {
  return new Parser(html, dialect).run();
}

class Parser<T extends string> {
  private i = 0;
  private text = "";
  private readonly stack: StrictHtmlOpenTag<T>[] = [];
  private readonly spans: StrictHtmlSpan<T>[] = [];

  constructor(
    private readonly src: string,
    private readonly dialect: StrictHtmlDialect<T>,
  ) {}

  run(): StrictHtml<T> {
    const src = this.src;
    while (this.i < src.length) {
      const next = src.slice(this.i).search(/[&<]/);
      if (next < 0) {
        this.text += src.slice(this.i);
        break;
      }
      this.text += src.slice(this.i, this.i + next);
      this.i += next;
      if (src[this.i] === "&") this.text += this.entity();
      else if (src[this.i + 1] === "/") this.endTag();
      else this.startTag();
    }
    const open = this.stack.at(-1);
    if (open) throw new StrictHtmlError(`Can't find end tag corresponding to start tag "${open.name}"`);
    return { text: this.text, spans: this.spans };
  }

  private fail(message: string, at = this.i): never {
    throw new StrictHtmlError(`${message} at byte offset ${Buffer.byteLength(this.src.slice(0, at))}`);
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
    const type = Object.hasOwn(this.dialect.tags, name) ? this.dialect.tags[name] : undefined;
    if (type === undefined) this.fail(`Unsupported start tag "${name}"`, at);
    const attrs = this.attributes(name, at);
    const refused = this.dialect.refuse?.(name, attrs, this.stack, this.text.length);
    if (refused !== undefined) this.fail(refused, at);
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
      const where = `at byte offset ${Buffer.byteLength(this.src.slice(0, at))}`;
      throw new StrictHtmlError(`Unmatched end tag ${where}, expected "</${open.name}>", found "</${name}>"`);
    }
    this.close(open);
  }

  private close(open: StrictHtmlOpenTag<T>): void {
    const length = this.text.length - open.start;
    if (length === 0) return;
    const parent = this.stack.at(-1);
    if (open.name === "code" && parent?.name === "pre") {
      // <pre><code class="language-x"> is one pre span with a language.
      const language = /^language-(.+)$/.exec(open.attrs.get("class") ?? "")?.[1];
      if (language) parent.attrs.set("language", language);
      return;
    }
    this.spans.push({ type: open.type, offset: open.start, length, attrs: open.attrs });
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

/** Visible text and formatting spans of decoded markup. */
export interface DecodedHtml {
  /** What the platform shows. */
  text: string;
  /** Formatting spans over `text`, in order of offset. */
  formatting: ObservedFormat[];
}

/**
 * Decode `markup` in the dialect whose tags are `tags` (tag name → the span it shows), as
 * the conformance suite's formatting spans (`<a href>` gives a link's `url`); throws a
 * {@link StrictHtmlError} on anything the dialect refuses.
 */
export function decodeStrictHtml(
  markup: string,
  tags: Readonly<Record<string, ObservedFormatKind>>,
): DecodedHtml {
  const { text, spans } = parseStrictHtml(markup, { tags });
  const formatting = spans.map(({ type: kind, offset, length, attrs }): ObservedFormat => {
    const language = attrs.get("language");
    const href = attrs.get("href");
    return {
      kind,
      offset,
      length,
      ...(kind === "pre" && language !== undefined ? { language } : {}),
      ...(kind === "link" && href !== undefined ? { url: href } : {}),
    };
  });
  return { text, formatting: formatting.sort((a, b) => a.offset - b.offset) };
}
