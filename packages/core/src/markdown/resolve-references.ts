import type { Definition, Parent, Root, RootContent } from "mdast";

/**
 * Replace `[text][ref]` / `![alt][ref]` with plain links and images and drop the
 * definitions, in place, so any piece of the tree renders on its own (a chunk never
 * needs a definition that went to another chunk).
 */
export function resolveReferences(tree: Root): void {
  const definitions = new Map<string, Definition>();
  collect(tree, definitions);
  replace(tree, definitions);
}

function collect(node: Root | RootContent, definitions: Map<string, Definition>): void {
  if (node.type === "definition") {
    if (!definitions.has(node.identifier)) definitions.set(node.identifier, node);
    return;
  }
  if ("children" in node) for (const child of node.children) collect(child, definitions);
}

function replace(node: Root | RootContent, definitions: Map<string, Definition>): void {
  if (!("children" in node)) return;
  const parent = node as Parent;
  parent.children = parent.children.flatMap((child): RootContent[] => {
    if (child.type === "definition") return [];
    if (child.type === "linkReference" || child.type === "imageReference") {
      const definition = definitions.get(child.identifier);
      const url = definition?.url ?? "";
      const title = definition?.title ?? null;
      if (child.type === "imageReference") return [{ type: "image", url, title, alt: child.alt ?? null }];
      const link: RootContent = { type: "link", url, title, children: child.children };
      replace(link, definitions);
      return [link];
    }
    replace(child, definitions);
    return [child];
  });
}
