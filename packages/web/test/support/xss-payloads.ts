/**
 * Attacks a model (or a prompt injection through it) can put in a reply, each trying to run
 * script on the inbox page. Every payload that ran would leave a trace the browser test looks
 * for: `window.__pwned` (or the top window's) set to the payload's name, a dialog, or a console
 * line starting `PWNED`. `shows` is text that must appear literally in the message: markup a
 * model wrote is shown as text, not dropped in silence. The sanitizer tests' payloads
 * (`../xss.ts`, which call `alert`) run in the browser too.
 */
import type { CanvasEmbed, ReplyPayloadInput } from "@outbox/core";
import { XSS_PAYLOADS } from "../xss.js";

/** One attack. */
export interface XssPayload {
  /** Short name; also the value a payload that ran leaves in `__pwned`. */
  name: string;
  /** What is delivered. */
  payload: ReplyPayloadInput;
  /** Text the message must show literally (whitespace-normalized). */
  shows?: string[];
}

const pwn = (name: string) => `window.__pwned='${name}'`;

const textPayloads: Array<[name: string, text: string, shows?: string[]]> = [
  ["script-tag", `<script>${pwn("script-tag")}</script>`, ["<script>"]],
  ["script-split", `<scr<script>ipt>${pwn("script-split")}</scr</script>ipt>`, ["ipt>"]],
  ["img-onerror", `<img src=x onerror="${pwn("img-onerror")}">`, ["<img src=x onerror="]],
  ["svg-onload", `<svg onload="${pwn("svg-onload")}"></svg>`, ["<svg onload="]],
  ["svg-script", `<svg><script>${pwn("svg-script")}</script></svg>`, ["<svg><script>"]],
  ["svg-animate", `<svg><animate onbegin="${pwn("svg-animate")}" attributeName=x dur=1s></svg>`],
  [
    "math-mxss",
    `<math><mtext><table><mglyph><style><img src=x onerror="${pwn("math-mxss")}"></style></mglyph></table></mtext></math>`,
    ["<math>"],
  ],
  ["iframe-js", `<iframe src="javascript:top.__pwned='iframe-js'"></iframe>`, ["<iframe"]],
  ["iframe-srcdoc", `<iframe srcdoc="<script>top.__pwned='iframe-srcdoc'</script>"></iframe>`],
  ["style-tag", `<style>*{background:url("javascript:${pwn("style-tag")}")}</style>`],
  ["form-action", `<form><button formaction="javascript:${pwn("form-action")}">go</button></form>`],
  ["video-onerror", `<video><source onerror="${pwn("video-onerror")}"></video>`],
  ["raw-a-js", `<a href="javascript:${pwn("raw-a-js")}">raw link</a>`, ["raw link"]],
  ["raw-a-entity", `<a href="&#x6A;avascript:${pwn("raw-a-entity")}">hex</a>`],
  ["raw-a-tab", `<a href="java\tscript:${pwn("raw-a-tab")}">tab</a>`],
  ["md-link-js", `[click me](javascript:${pwn("md-link-js")})`, ["click me"]],
  ["md-link-entity", `[click](javascript&#58;${pwn("md-link-entity")})`],
  ["md-autolink", `<javascript:${pwn("md-autolink")}>`],
  ["md-ref-link", `[ref][1]\n\n[1]: javascript:${pwn("md-ref-link")}`],
  ["md-image-js", `![x](javascript:${pwn("md-image-js")})`],
  ["md-image-attr", `![x](https://example.com/x.png" onerror="${pwn("md-image-attr")})`],
  ["raw-a-data", `<a href="data:text/html,<script>top.__pwned='raw-a-data'</script>">data link</a>`],
  ["entity-script", `&lt;script&gt;${pwn("entity-script")}&lt;/script&gt;`, ["<script>"]],
  ["code-span", `\`<script>${pwn("code-span")}</script>\``, ["<script>"]],
  ["code-block", `\`\`\`html\n<img src=x onerror="${pwn("code-block")}">\n\`\`\``, ["<img src=x onerror="]],
  ["spoiler-img", `||<img src=x onerror="${pwn("spoiler-img")}">||`, ["<img src=x"]],
  ["bold-html", `**<img src=x onerror="${pwn("bold-html")}">**`, ["<img src=x"]],
  ["console", `<svg onload="console.log('PWNED console')"></svg>`],
  ["embed-js", `[embed url="javascript:${pwn("embed-js")}" title="js" /]`, ["[embed"]],
  ["embed-data", `[embed url="data:text/html,<script>top.__pwned='embed-data'</script>" /]`, ["[embed"]],
  ["embed-title", `[embed url="https://example.com/c" title="<img src=x onerror=${pwn("embed-title")}>" /]`],
  [
    "embed-block-body",
    `[embed url="https://example.com/c"]<img src=x onerror="${pwn("embed-block-body")}">[/embed]`,
  ],
];

const canvas = (name: string, url: string, title = name): CanvasEmbed => ({
  type: "canvas",
  preview: { kind: "canvas", surface: "assistant_message", render: "url", url, title },
});

/** Every attack: text ones (ours, then the sanitizer tests'), then structured fields (embeds, file names). */
export const xssPayloads: readonly XssPayload[] = [
  ...textPayloads.map(([name, text, shows]) => ({ name, payload: { text }, ...(shows ? { shows } : {}) })),
  ...XSS_PAYLOADS.map((text, index) => ({ name: `sanitizer-test-${index}`, payload: { text } })),
  {
    name: "structured-embed-js",
    payload: {
      text: "structured js embed",
      embeds: [canvas("structured-embed-js", `javascript:${pwn("x")}`)],
    },
  },
  {
    name: "structured-embed-vbscript",
    payload: { text: "structured vbscript embed", embeds: [canvas("vb", "vbscript:msgbox(1)")] },
  },
  {
    name: "structured-embed-title",
    payload: {
      text: "structured embed title",
      embeds: [
        canvas("t", "https://example.com/c", `"><img src=x onerror="${pwn("structured-embed-title")}">`),
      ],
    },
  },
  {
    name: "file-name",
    payload: {
      text: "a document with a hostile name",
      media: [
        {
          mimeType: "application/pdf",
          base64: Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64"),
          fileName: `"><img src=x onerror="${pwn("file-name")}">.pdf`,
        },
      ],
    },
  },
];
