/**
 * A linear fast path for the sanitizer: HTML already made only of the elements and
 * attributes of the whitelist, in the exact forms the renderer writes, well nested, comes
 * back as sanitize-html would write it without building a DOM. sanitize-html costs about
 * ten times the rendering (a parser, a frame per element, entity decoding), and the planner
 * renders a long reply's pieces several times while it cuts it; anything this path does not
 * recognise goes to sanitize-html, so the whitelist stays its job.
 */

/** Elements written bare (`<p>`), with whether they are void (`<br />`). */
const BARE: ReadonlyMap<string, boolean> = new Map([
  ["p", false],
  ["br", true],
  ["hr", true],
  ["strong", false],
  ["em", false],
  ["del", false],
  ["code", false],
  ["pre", false],
  ["blockquote", false],
  ["ul", false],
  ["ol", false],
  ["li", false],
]);
/** Elements whose opening ends an open `p` in an HTML parser (so the tree would change). */
const CLOSES_P = new Set(["p", "pre", "blockquote", "ul", "ol", "hr", "li"]);
/** The attributed forms the renderer writes, each as sanitize-html writes it back. */
const ATTRIBUTED =
  /^(?:a href="((?:https?|mailto):[^"<>]*)"|code class="language-[\w#+.-]{1,32}"|span class="ob-spoiler"|ol start="\d{1,9}")$/;
/** Entities the renderer writes in text; anything else (`&nbsp;`, `&#x27;`) goes the slow way. */
const ENTITY = /&(?!(?:amp|lt|gt|quot|#39);)/;
/** A tag's inside: `/name`, `name` or `name attributes`. */
const TAG = /^(\/?)([a-z]+)((?: [^<>]*)?)$/;
/** {@link TAG}'s match for the inside of each bare tag (`em`, `/em`), found without matching it. */
const BARE_FORMS = new Map<string, readonly string[]>(
  [...BARE.keys(), "a", "span"].flatMap((tag) => [
    [tag, [tag, "", tag, ""]],
    [`/${tag}`, [`/${tag}`, "/", tag, ""]],
  ]),
);

/**
 * `html` as `sanitizeHtml` returns it, when it is plainly within the whitelist; `undefined`
 * when the real sanitizer must judge it. What sanitize-html would write differently (void
 * elements, link attributes, decoded quotes) is patched in; the rest is copied in slices.
 */
export function passWhitelisted(html: string): string | undefined {
  let out = "";
  /** Where the text not yet copied to `out` starts. */
  let copied = 0;
  const open: string[] = [];
  /**
   * The first `&` at or after the scan position (-1: none left), searched again only once the
   * scan passes it: text between tags is judged without copying it out.
   */
  let amp = html.indexOf("&");
  for (let at = 0; at < html.length; ) {
    if (html.charCodeAt(at) !== 60 /* < */) {
      let end = html.indexOf("<", at);
      if (end < 0) end = html.length;
      // The next `>` is the next tag's own unless the text holds one.
      const gt = html.indexOf(">", at);
      if (gt >= 0 && gt < end) return undefined;
      if (amp >= 0 && amp < at) amp = html.indexOf("&", at);
      if (amp >= 0 && amp < end) {
        const text = html.slice(at, end);
        if (ENTITY.test(text)) return undefined;
        // sanitize-html decodes text and escapes only `& < >` again.
        out += html.slice(copied, at) + text.replace(/&quot;/g, '"').replace(/&#39;/g, "'");
        copied = end;
      }
      at = end;
      continue;
    }
    const end = html.indexOf(">", at);
    const inside = end < 0 ? undefined : html.slice(at + 1, end);
    const form = inside === undefined ? null : (BARE_FORMS.get(inside) ?? TAG.exec(inside));
    if (form === null) return undefined;
    const [, closing, tag = "", attributes = ""] = form;
    const top = open[open.length - 1];
    const next = end + 1;
    if (closing === "/") {
      if (attributes !== "" || top !== tag) return undefined;
      open.pop();
    } else {
      if (top === "p" && CLOSES_P.has(tag)) return undefined;
      if (tag === "li" && top !== "ul" && top !== "ol") return undefined;
      const patch = attributes === "" ? bare(tag, open) : attributed(tag, attributes, open);
      if (patch === undefined) return undefined;
      if (patch !== null) {
        out += html.slice(copied, at) + patch;
        copied = next;
      }
    }
    at = next;
  }
  return open.length === 0 ? out + html.slice(copied) : undefined;
}

/** A bare element opened (`null`: written as is); `undefined` if not whitelisted. */
function bare(tag: string, open: string[]): string | null | undefined {
  const empty = BARE.get(tag);
  if (empty === undefined) return undefined;
  if (empty) return `<${tag} />`;
  open.push(tag);
  return null;
}

/** An element with attributes opened (`null`: written as is); `undefined` if not in a known form. */
function attributed(tag: string, attributes: string, open: string[]): string | null | undefined {
  const form = ATTRIBUTED.exec(`${tag}${attributes}`);
  if (form === null) return undefined;
  open.push(tag);
  const href = form[1];
  if (href === undefined) return null;
  if (ENTITY.test(href) || href.includes("&#39;")) return undefined;
  return `<a href="${href}" rel="noopener noreferrer nofollow" target="_blank">`;
}
