/**
 * The inbox page of one conversation: the history rendered on the server, the status line,
 * a small stylesheet and the client script (both carrying the response's CSP nonce).
 */
import { escapeHtml } from "@outbox/core";
import { CLIENT_SCRIPT } from "./client-script.js";

/** What the page shows. */
export interface PageContent {
  /** Page title. */
  title: string;
  /** Conversation id. */
  conversation: string;
  /** Rendered articles, in order. */
  articles: string[];
  /** Id of the last event included; the stream continues after it. */
  lastEventId: string | undefined;
  /** The response's CSP nonce. */
  nonce: string;
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f4f4f6;color:#1c1c1e}
header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:.6em 1em;display:flex;justify-content:space-between}
#ob-status{font-size:.85em;color:#888}#ob-status[data-state=live]{color:#1a7f37}
main{max-width:760px;margin:0 auto;padding:1em;display:flex;flex-direction:column;gap:.8em}
.ob-message{background:#fff;border-radius:12px;padding:.7em 1em;box-shadow:0 1px 2px #0001;overflow-wrap:anywhere}
.ob-message[data-author=user]{background:#dcebff;align-self:flex-end;max-width:80%}
.ob-text p{margin:.3em 0}.ob-text pre{background:#f0f0f3;padding:.6em;border-radius:6px;overflow:auto}
.ob-text code{font-family:ui-monospace,monospace;font-size:.92em}
.ob-text blockquote,.ob-reply-ref{border-left:3px solid #c7c7cc;margin:.3em 0;padding-left:.7em;color:#555}
.ob-reply-ref{font-size:.88em}
.ob-spoiler{background:#1c1c1e;color:transparent;border-radius:3px}.ob-spoiler:hover{color:#fff}
.ob-media{margin:.3em 0}.ob-media img,.ob-media video{max-width:100%;height:auto;border-radius:8px}
.ob-media img{min-width:48px;min-height:48px;object-fit:contain}
.ob-media video{width:100%;min-height:120px;max-height:70vh;background:#000;object-fit:contain}
.ob-media audio{width:100%}.ob-media figcaption{font-size:.85em;color:#666}
.ob-gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:.4em}
.ob-embed{margin:.3em 0}.ob-embed iframe{width:100%;border:1px solid #ddd;border-radius:8px}
`;

/** Render the whole page. */
export function renderPage(content: PageContent): string {
  const title = escapeHtml(content.title);
  const last =
    content.lastEventId === undefined ? "" : ` data-last-event="${escapeHtml(content.lastEventId)}"`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${title}</title>
<style nonce="${content.nonce}">${STYLE}</style></head>
<body><header><span>${title}</span><div id="ob-status" data-state="reconnecting">Connecting…</div></header>
<main id="ob-messages" data-conversation="${escapeHtml(content.conversation)}"${last}>${content.articles.join("\n")}</main>
<script nonce="${content.nonce}">${CLIENT_SCRIPT}</script></body></html>`;
}
