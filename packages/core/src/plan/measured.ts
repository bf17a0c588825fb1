import type { Root } from "mdast";
import type { MeasuredText, Renderer } from "../adapter/types.js";

/** A tree rendered and measured: in one walk with `renderer.renderMeasured`, else render then measure. */
export function renderMeasured(renderer: Renderer, tree: Root): MeasuredText {
  if (renderer.renderMeasured !== undefined) return renderer.renderMeasured(tree);
  const text = renderer.render(tree);
  return { text, length: renderer.measure(text) };
}
