import type { Root, RootContent } from "mdast";
import type { MeasuredText, Renderer } from "../adapter/types.js";

/** A tree rendered and measured: in one walk with `renderer.renderMeasured`, else render then measure. */
export function renderMeasured(renderer: Renderer, tree: Root): MeasuredText {
  if (renderer.renderMeasured !== undefined) return renderer.renderMeasured(tree);
  const text = renderer.render(tree);
  return { text, length: renderer.measure(text) };
}

/** Top-level blocks rendered one by one, for a renderer that declares `blockSeparator`. */
export interface BlockRenderings {
  /** `Renderer.blockSeparator`. */
  separator: string;
  /** Its measured length. */
  separatorLength: number;
  /**
   * Each top-level block's rendering (as a tree of its own), by its index in the tree: an
   * array, not a map keyed by node (hashing 350,000 nodes took longer than rendering them).
   */
  byIndex: readonly MeasuredText[];
}

/** A tree rendered and measured, with its blocks' renderings when the renderer can join them. */
export interface MeasuredTree {
  /** The whole tree. */
  whole: MeasuredText;
  /** Each top-level block, when the renderer declares `blockSeparator`. */
  blocks?: BlockRenderings;
}

/**
 * Render and measure a tree. With `renderer.blockSeparator`, each top-level block is
 * rendered on its own and the whole is joined from the pieces (the same text, per the
 * renderer's promise), so splitting it later renders nothing twice.
 */
export function measureTree(renderer: Renderer, tree: Root): MeasuredTree {
  const separator = renderer.blockSeparator;
  if (separator === undefined) return { whole: renderMeasured(renderer, tree) };
  const byIndex = tree.children.map((child) => renderMeasured(renderer, rootOf([child])));
  const blocks: BlockRenderings = { separator, separatorLength: renderer.measure(separator), byIndex };
  return { whole: joinBlocks(byIndex, blocks), blocks };
}

/** Renderings of blocks joined as one tree's (empty ones skipped, as the renderer does). */
export function joinBlocks(pieces: readonly MeasuredText[], blocks: BlockRenderings): MeasuredText {
  let text = "";
  let length = 0;
  for (const piece of pieces) {
    if (piece.text === "") continue;
    if (text !== "") {
      text += blocks.separator;
      length += blocks.separatorLength;
    }
    text += piece.text;
    length += piece.length;
  }
  return { text, length };
}

/** A root holding `children`. */
export function rootOf(children: RootContent[]): Root {
  return { type: "root", children };
}
