/**
 * The Matrix renderer: Markdown tree → `formatted_body` HTML, measured by what its event
 * weighs in bytes (both bodies, JSON-escaped, as an edit: see weight.ts), and readable plain
 * text for the tree.
 */
import { type Renderer, toPlainText } from "@outbox/core";
import { renderMatrixHtml } from "./html-renderer.js";
import { eventWeight } from "./weight.js";

/** Renders replies as Matrix HTML. */
export const matrixRenderer: Renderer = {
  render: renderMatrixHtml,
  measure: eventWeight,
  plain: (tree) => toPlainText(tree),
};
