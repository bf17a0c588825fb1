/**
 * A message's `text` (`textFormat: "xml"`) as the emulator checks and reads it. The check is
 * the HTML subset Teams documents for bot messages ("Format your bot messages"): Teams drops
 * other tags and shows their text bare, so this strict emulator refuses them (400 naming the
 * tag) rather than let a renderer rely on them. `<at>` is a mention only with a matching
 * `mention` entity; without one Teams shows its text.
 *
 * The reading is what the Teams client draws, by core's `readHtml`: visible text, formatting
 * spans, lines (list items with their markers, blocks apart by a blank line, `<br>` a new line).
 */
import { type HtmlReading, observedLines, type ReadHtml, readHtml } from "@outbox/core/testing";
import { type ChildNode, isTag } from "domhandler";
import { parseDocument } from "htmlparser2";
import { badArgument } from "./errors.js";

/** Tags and their permitted attributes. */
const ALLOWED: Record<string, readonly string[]> = {
  ...Object.fromEntries(
    "p br b strong i em u s strike del h1 h2 h3 hr ul ol li pre blockquote span at"
      .split(" ")
      .map((tag) => [tag, []]),
  ),
  ol: ["start"],
  a: ["href", "title"],
  code: ["class"],
  img: ["src", "alt", "width", "height"],
  at: ["id"],
};
const LINK_SCHEMES = /^(https?|mailto):/i;

/** Refuse text with a tag, attribute or link outside Teams' subset. */
export function checkHtml(html: string): void {
  const walk = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      const allowed = ALLOWED[node.name];
      if (allowed === undefined) throw badArgument(`text: <${node.name}> is not in Teams' HTML subset`);
      for (const attribute of Object.keys(node.attribs))
        if (!allowed.includes(attribute))
          throw badArgument(`text: attribute ${attribute} of <${node.name}> is not permitted`);
      if (node.name === "a" && !LINK_SCHEMES.test(node.attribs.href ?? ""))
        throw badArgument(`text: link scheme of ${node.attribs.href ?? "(none)"} is not permitted`);
      walk(node.children);
    }
  };
  walk(parseDocument(html).children);
}

/** The ids of the `<at>` tags of a text, with the text each shows. */
export function atTags(html: string): Array<{ text: string }> {
  const found: Array<{ text: string }> = [];
  const walk = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      if (node.name === "at") found.push({ text: textOf(node.children) });
      walk(node.children);
    }
  };
  walk(parseDocument(html).children);
  return found;
}

function textOf(nodes: ChildNode[]): string {
  return nodes
    .map((node) => ("data" in node ? String(node.data) : isTag(node) ? textOf(node.children) : ""))
    .join("");
}

/** Teams' layout: no spoilers, a rule as `———`. */
const TEAMS: HtmlReading = { spoiler: () => false, rule: "———" };

/** Decode text as the Teams client shows it. */
export function decodeHtml(html: string): ReadHtml {
  return readHtml(parseDocument(html).children, TEAMS);
}

/** Decode plain text (`textFormat: "plain"`): shown as written. */
export function decodePlain(text: string): ReadHtml {
  return { text, formatting: [], lines: observedLines(text, []) };
}
