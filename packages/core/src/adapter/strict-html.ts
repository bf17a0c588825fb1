/**
 * The emulator kit's HTML decoder: a strict HTML dialect as chat platforms parse it
 * (Telegram's `parse_mode: HTML`, Matrix's `formatted_body`, the reference platform), decoded
 * into the visible text and its formatting spans. Only the dialect's tags and the entities
 * `&lt; &gt; &amp; &quot;` are accepted; anything else, and any unbalanced tag, is refused
 * with a "can't parse entities" error as a platform would answer it. `<a href>` gives the
 * link's `url`; `<code class="language-x">` directly inside `<pre>` gives the `pre` span's
 * `language`. The lines of the result come from `observedLines`.
 */
import type { ObservedFormat, ObservedFormatKind } from "./observed.js";

/** Visible text and formatting spans of decoded markup. */
export interface DecodedHtml {
  /** What the platform shows. */
  text: string;
  /** Formatting spans over `text`, in order of offset. */
  formatting: ObservedFormat[];
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/** An open tag: where its content starts and its decoded attributes. */
interface OpenTag {
  tag: string;
  start: number;
  attrs: Record<string, string>;
}

/**
 * Decode `markup` in the dialect whose tags are `tags` (tag name → the span it shows);
 * throws an Error starting "can't parse entities:" on anything the dialect refuses.
 */
export function decodeStrictHtml(
  markup: string,
  tags: Readonly<Record<string, ObservedFormatKind>>,
): DecodedHtml {
  const open: OpenTag[] = [];
  const formatting: ObservedFormat[] = [];
  let visible = "";
  const token = /<(\/?)([a-z][a-z0-9-]*)((?:\s+[a-z-]+="[^"<>]*")*)\s*>|&([a-z]+);|[<>&]/g;
  let last = 0;
  for (let match = token.exec(markup); match; match = token.exec(markup)) {
    visible += markup.slice(last, match.index);
    last = token.lastIndex;
    const [whole, closing, tag, attrs, entity] = match;
    if (entity !== undefined) visible += decodeEntity(entity);
    else if (tag !== undefined && Object.hasOwn(tags, tag)) {
      if (!closing) {
        open.push({ tag, start: visible.length, attrs: attributes(attrs ?? "") });
        continue;
      }
      const top = open.pop();
      if (top?.tag !== tag) throw new Error(`can't parse entities: unexpected end tag </${tag}>`);
      const span = spanOf(tags, top, visible.length, open.at(-1));
      if (span) formatting.push(span);
    } else throw new Error(`can't parse entities: unsupported "${whole}" at byte ${match.index}`);
  }
  if (open.length > 0)
    throw new Error(`can't parse entities: unclosed <${open.map((o) => o.tag).join("><")}>`);
  formatting.sort((a, b) => a.offset - b.offset);
  return { text: visible + markup.slice(last), formatting };
}

function decodeEntity(name: string): string {
  const decoded = ENTITIES[name];
  if (decoded === undefined) throw new Error(`can't parse entities: unknown entity &${name};`);
  return decoded;
}

/** `name="value"` pairs of a tag, values decoded. */
function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, value] of source.matchAll(/([a-z-]+)="([^"<>]*)"/g))
    out[name as string] = (value as string).replace(/&([a-z]+);/g, (_, entity: string) =>
      decodeEntity(entity),
    );
  return out;
}

/**
 * The span a closed tag shows; `undefined` when empty, or for `<code>` directly inside
 * `<pre>`, whose `class="language-x"` becomes the language of the `pre` span instead.
 */
function spanOf(
  tags: Readonly<Record<string, ObservedFormatKind>>,
  tag: OpenTag,
  end: number,
  parent: OpenTag | undefined,
): ObservedFormat | undefined {
  if (tag.tag === "code" && parent?.tag === "pre") {
    const language = /^language-(.+)$/.exec(tag.attrs.class ?? "")?.[1];
    if (language !== undefined) parent.attrs.language = language;
    return undefined;
  }
  if (end === tag.start) return undefined;
  const kind = tags[tag.tag] as ObservedFormatKind;
  const { language, href } = tag.attrs;
  return {
    kind,
    offset: tag.start,
    length: end - tag.start,
    ...(kind === "pre" && language !== undefined ? { language } : {}),
    ...(kind === "link" && href !== undefined ? { url: href } : {}),
  };
}
