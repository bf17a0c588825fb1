/**
 * Renderers broken on purpose, for an adapter's teeth test: each wraps the adapter's own
 * renderer with one line-structure bug that a real renderer has had, and names the case that
 * must fail with it and how its failure message starts. Run them with `runCase` against a
 * harness built with the broken renderer (docs/conformance.md, "Teeth").
 */
import type { Renderer } from "@outbox/core";
import type { List, Nodes, Paragraph, Root, RootContent } from "mdast";

/** One deliberately broken renderer and the case that catches it. */
export interface BrokenRenderer {
  /** The bug, in words. */
  bug: string;
  /** The adapter's renderer with the bug (its one-walk `renderMeasured` and `blockSeparator` dropped). */
  wrap(renderer: Renderer): Renderer;
  /** The case id that must fail, and how its failure message starts. */
  caughtBy: { id: string; reason: RegExp };
}

const LINES = "^line structure \\(as the client shows it\\): got \\[";

/** The broken renderers every platform's teeth test runs. */
export const brokenRenderers: readonly BrokenRenderer[] = [
  {
    bug: "drops every line break of the rendered markup (newlines and <br>)",
    wrap: (r) => derived(r, (tree) => r.render(tree).replace(/\n+|<br\s*\/?>/g, " ")),
    caughtBy: { id: "text.lines", reason: new RegExp(`${LINES}"Roses are red, violets are blue\\.`) },
  },
  {
    bug: "runs a list's items together on one line",
    wrap: (r) => derived(r, (tree) => r.render(mapBlocks(tree, joinList))),
    caughtBy: { id: "text.lists", reason: new RegExp(`${LINES}"Shopping:","","apples pears green ones`) },
  },
  {
    bug: "merges paragraphs (one line break between them instead of a gap)",
    wrap: (r) => derived(r, (tree) => r.render(mergeParagraphs(tree))),
    caughtBy: {
      id: "text.lines",
      reason: new RegExp(`${LINES}"Roses are red,","violets are blue\\.","Second paragraph:"`),
    },
  },
  {
    bug: "ends a code block at the first fence inside it",
    wrap: (r) => derived(r, (tree) => r.render(mapBlocks(tree, cutAtInnerFence))),
    caughtBy: {
      id: "text.nested-fence",
      reason: new RegExp(`${LINES}"code: How to fence:",(?!"code: \`\`\`js")`),
    },
  },
];

/** `renderer` with `render` replaced; the promises `render` no longer keeps are dropped. */
function derived(renderer: Renderer, render: (tree: Root) => string): Renderer {
  const { renderMeasured: _measured, blockSeparator: _separator, ...rest } = renderer;
  return { ...rest, render };
}

/** The tree with each top-level block replaced by what `change` makes of it. */
function mapBlocks(tree: Root, change: (node: RootContent) => RootContent[]): Root {
  return { ...tree, children: tree.children.flatMap(change) };
}

/** A list as one paragraph: its items' words joined by spaces. */
function joinList(node: RootContent): RootContent[] {
  if (node.type !== "list") return [node];
  const words = (n: Nodes): string[] =>
    n.type === "list" || n.type === "listItem" || n.type === "paragraph"
      ? n.children.flatMap((child) => words(child as Nodes))
      : [textOf(n)];
  return [paragraph(words(node as List).join(" "))];
}

/** A code block cut at its first inner ``` fence; the rest shown as plain text without the backticks. */
function cutAtInnerFence(node: RootContent): RootContent[] {
  if (node.type !== "code" || !node.value.includes("```")) return [node];
  const [before = "", ...after] = node.value.split("```");
  return [{ ...node, value: before.replace(/\n$/, "") }, paragraph(after.join(""))];
}

/** Adjacent top-level paragraphs joined into one, a single line break between them. */
function mergeParagraphs(tree: Root): Root {
  const children: RootContent[] = [];
  for (const node of tree.children) {
    const last = children.at(-1);
    if (node.type === "paragraph" && last?.type === "paragraph")
      children[children.length - 1] = {
        ...last,
        children: [...last.children, { type: "text", value: "\n" }, ...node.children],
      };
    else children.push(node);
  }
  return { ...tree, children };
}

function paragraph(value: string): Paragraph {
  return { type: "paragraph", children: [{ type: "text", value }] };
}

function textOf(node: Nodes): string {
  if ("value" in node) return String(node.value);
  return "children" in node ? (node.children as Nodes[]).map(textOf).join("") : "";
}
