import type { Root } from "mdast";
import type { RenderedText, Renderer } from "../adapter/types.js";

/**
 * A part's rendered text. Its plain-text fallback is computed on first read only: a
 * transport reads it when the platform refuses the markup, which is rare, so the hot path
 * renders each chunk once.
 */
export function renderedText(
  tree: Root,
  renderer: Renderer,
  text: string = renderer.render(tree),
): RenderedText {
  let plain: string | undefined;
  return {
    text,
    get plain(): string {
      if (plain === undefined) plain = renderer.plain(tree);
      return plain;
    },
  };
}
