import type { Definition, Nodes, Parent, Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmStrikethroughFromMarkdown } from "mdast-util-gfm-strikethrough";
import { gfmStrikethrough } from "micromark-extension-gfm-strikethrough";

const options = {
  extensions: [gfmStrikethrough({ singleTilde: false })],
  mdastExtensions: [gfmStrikethroughFromMarkdown()],
};

/** micromark's tree as is (mdast-util-from-markdown with GFM strikethrough): the parser core used before markdown-it. */
export function parseWithMicromark(text: string): Root {
  return fromMarkdown(text, options);
}

/**
 * The reference tree: micromark (mdast-util-from-markdown with GFM strikethrough), with
 * reference links and images resolved the way markdown-it resolves them (first definition
 * wins, definitions dropped), positions removed.
 */
export function oracleTree(text: string): Root {
  const tree = parseWithMicromark(text);
  const definitions = new Map<string, Definition>();
  collect(tree, definitions);
  resolve(tree, definitions);
  return withoutPositions(tree);
}

/** A deep copy of a tree without `position` fields. */
export function withoutPositions<T extends Nodes>(tree: T): T {
  return JSON.parse(JSON.stringify(tree, (key, value) => (key === "position" ? undefined : value))) as T;
}

function collect(node: Nodes, definitions: Map<string, Definition>): void {
  if (node.type === "definition" && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
  if ("children" in node) for (const child of node.children) collect(child, definitions);
}

function resolve(node: Nodes, definitions: Map<string, Definition>): void {
  if (!("children" in node)) return;
  (node as Parent).children = node.children.flatMap((child): RootContent[] => {
    if (child.type === "definition") return [];
    if (child.type === "linkReference" || child.type === "imageReference") {
      const definition = definitions.get(child.identifier);
      const url = definition?.url ?? "";
      const title = definition?.title ?? null;
      if (child.type === "imageReference") return [{ type: "image", url, title, alt: child.alt ?? null }];
      const link: RootContent = { type: "link", url, title, children: child.children };
      resolve(link, definitions);
      return [link];
    }
    resolve(child, definitions);
    return [child];
  });
}
