/**
 * The Slack renderer: Markdown tree → mrkdwn, its measure (UTF-16 length of the `text` sent,
 * as Slack counts its limits) and a readable plain text.
 */
import { type Renderer, toPlainText } from "@outbox/core";
import { escapeText } from "./escape.js";
import { renderMrkdwn } from "./mrkdwn-renderer.js";

/** Options of {@link createSlackRenderer}. */
export interface SlackRendererOptions {
  /** Keep Slack's mention tokens live (`<@U…>`, `<!here>` …). Default `false`. */
  mentions?: boolean;
}

/** A renderer writing Slack mrkdwn. */
export function createSlackRenderer(options: SlackRendererOptions = {}): Renderer {
  const mentions = options.mentions ?? false;
  return {
    render: (tree) => renderMrkdwn(tree, { mentions }),
    measure: (rendered) => rendered.length,
    // Blocks are rendered on their own and joined by a blank line, and the length adds up.
    blockSeparator: "\n\n",
    plain: (tree) => escapeText(toPlainText(tree, { markers: true }), mentions),
  };
}

/** The default renderer: mrkdwn with mentions shown as typed (they notify nobody). */
export const slackRenderer: Renderer = createSlackRenderer();
