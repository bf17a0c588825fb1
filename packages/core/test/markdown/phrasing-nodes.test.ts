import { type HostileFamilyName, hostileMarkdown } from "@outbox/conformance";
import type { Nodes, Root } from "mdast";
import { describe, expect, it } from "vitest";
import { parseMarkdown } from "../../src/markdown/parse-markdown.js";
import { parseReplyMarkdown, replyTree } from "../../src/markdown/parse-reply-markdown.js";

/** The objects a tree is made of (nodes and children arrays), each counted once however often it stands. */
function distinctObjects(tree: Root): number {
  const seen = new Set<object>();
  const walk = (node: Nodes): void => {
    if (seen.has(node)) return;
    seen.add(node);
    if (!("children" in node)) return;
    seen.add(node.children);
    for (const child of node.children) walk(child);
  };
  walk(tree);
  return seen.size;
}

/** Every node of a tree, depth first. */
function nodes(tree: Nodes): Nodes[] {
  return "children" in tree ? [tree, ...tree.children.flatMap((child) => nodes(child))] : [tree];
}

const withoutPositions = (tree: Root): unknown =>
  JSON.parse(JSON.stringify(tree, (key, value) => (key === "position" ? undefined : value)));

describe("replyTree shares recurring small nodes", () => {
  it.each<HostileFamilyName>([
    "marker runs",
    "alternating markers",
    "many tiny blocks",
    "link storm",
    "emphasis storm",
    "code-span storm",
  ])("256 KB of %s is a few dozen objects, the same tree as the parser's", (family) => {
    const text = hostileMarkdown[family](256 * 1024);
    const tree = replyTree(text);
    // Each node of its own made 40,000 to 200,000 objects (about 45 bytes of heap per byte of text).
    expect(distinctObjects(tree)).toBeLessThan(100);
    expect(tree).toEqual(withoutPositions(parseReplyMarkdown(text)));
  });

  it("keeps distinct and long texts whole, however many", () => {
    const words = Array.from({ length: 6000 }, (_, i) => `*w${i}* \`c${i}\` [l${i}](u${i})`).join("\n\n");
    const long = `*${"x".repeat(100)}* ${"y".repeat(100)}`;
    const text = `${words}\n\n${long}\n\n${long}`;
    expect(replyTree(text)).toEqual(withoutPositions(parseReplyMarkdown(text)));
  });

  it("freezes what it shares, so that a change throws instead of changing every place it stands", () => {
    const tree = replyTree(`*a* and *a*\n\n*a*\n\n*a*\n\n${"long ".repeat(14_000)}`);
    const [first, second, third] = tree.children as Array<{ children: Nodes[] }>;
    expect(second).toBe(third);
    const emphasis = first?.children[0];
    expect(emphasis).toBe(first?.children[2]);
    expect(emphasis).toBe(second?.children[0]);
    expect(Object.isFrozen(emphasis)).toBe(true);
    expect(() => {
      (emphasis as { children: unknown[] }).children = [];
    }).toThrow(TypeError);
  });

  it("gives a reply under 64 KB fresh nodes: sharing would only slow it down", () => {
    const text = `${"*a* and *a*\n\n".repeat(4000)}end`;
    expect(text.length).toBeLessThan(64 * 1024);
    const tree = replyTree(text);
    expect(nodes(tree).some((node) => Object.isFrozen(node))).toBe(false);
    expect(distinctObjects(tree)).toBe(
      nodes(tree).length + nodes(tree).filter((node) => "children" in node).length,
    );
  });

  it("leaves the public parser's tree unshared and writable", () => {
    const tree = parseMarkdown("*a* and *a*\n\n*a* and *a*");
    expect(distinctObjects(tree)).toBe(
      nodes(tree).length + nodes(tree).filter((node) => "children" in node).length,
    );
    expect(nodes(tree).some((node) => Object.isFrozen(node))).toBe(false);
  });
});
