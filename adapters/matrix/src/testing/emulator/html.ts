/**
 * `formatted_body` as the emulator checks and reads it. The check is the spec's list of HTML
 * tags and attributes clients should permit (client-server API, "m.room.message msgtypes"):
 * the spec only recommends that clients strip the rest, and Synapse stores anything, but
 * Element drops a tag outside the list and shows its text bare, so this strict emulator
 * refuses it (`M_BAD_JSON` naming the tag or attribute) rather than let a renderer rely on it.
 *
 * The reading is what Element draws, by core's `readHtml`: the visible text (a list item with
 * its marker, `• ` or its number, indented two spaces per level; blocks apart by a blank line;
 * `<br>` a new line), the formatting spans over it, and its lines, headings drawn as headings.
 */
import { type HtmlReading, type ReadHtml, readHtml } from "@outbox/core/testing";
import { type ChildNode, isTag } from "domhandler";
import { parseDocument } from "htmlparser2";
import { badJson } from "./api-error.js";

/** Tags and their permitted attributes (spec v1.x; `strike` is the spec's older name of `s`). */
const ALLOWED: Record<string, readonly string[]> = {
  ...Object.fromEntries(
    "del h1 h2 h3 h4 h5 h6 blockquote p ul li sup sub b i u strong em s strike hr br div table thead tbody tr th td caption pre details summary"
      .split(" ")
      .map((tag) => [tag, tag === "div" ? ["data-mx-maths"] : []]),
  ),
  font: ["data-mx-bg-color", "data-mx-color", "color"],
  span: ["data-mx-bg-color", "data-mx-color", "data-mx-spoiler", "data-mx-maths"],
  a: ["target", "href"],
  img: ["width", "height", "alt", "title", "src"],
  ol: ["start"],
  code: ["class"],
};
const LINK_SCHEMES = /^(https?|ftp|mailto|magnet):/i;

/** Refuse `formatted_body` with a tag, attribute or link outside the spec's list. */
export function checkHtml(html: string): void {
  const walk = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      const allowed = ALLOWED[node.name];
      if (allowed === undefined)
        throw badJson(`formatted_body: <${node.name}> is not in the spec's HTML allow-list`);
      for (const attribute of Object.keys(node.attribs))
        if (!allowed.includes(attribute))
          throw badJson(`formatted_body: attribute ${attribute} of <${node.name}> is not permitted`);
      if (node.name === "a" && node.attribs.href !== undefined && !LINK_SCHEMES.test(node.attribs.href))
        throw badJson(`formatted_body: link scheme of ${node.attribs.href} is not permitted`);
      if (node.name === "img" && !(node.attribs.src ?? "").startsWith("mxc://"))
        throw badJson("formatted_body: <img> src must be an mxc:// URI");
      if (
        node.name === "code" &&
        node.attribs.class !== undefined &&
        !/^language-\S+$/.test(node.attribs.class)
      )
        throw badJson("formatted_body: <code> class must be language-*");
      walk(node.children);
    }
  };
  walk(parseDocument(html).children);
}

/** What Element shows of an HTML body: visible text, formatting spans, lines. */
export type DecodedHtml = ReadHtml;

/** Element's layout: spoilers are `span[data-mx-spoiler]`, a rule is seen as `———`. */
const ELEMENT: HtmlReading = { spoiler: (attribs) => attribs["data-mx-spoiler"] !== undefined, rule: "———" };

/** Decode `formatted_body` as Element shows it (core's `readHtml`). */
export function decodeHtml(html: string): DecodedHtml {
  return readHtml(parseDocument(html).children, ELEMENT);
}
