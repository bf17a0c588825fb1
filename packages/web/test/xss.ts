/**
 * XSS payloads a model (or a page it quoted) might put in a reply, and a checker that finds
 * any executable construct in rendered HTML. Shared by the sanitizer tests.
 */
import { type Element, isTag } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";

/** Payloads: each must render as text or inert markup. */
export const XSS_PAYLOADS: string[] = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "<svg onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  "<iframe src=javascript:alert(1)></iframe>",
  '<a href="javascript:alert(1)">click</a>',
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[click](java\tscript:alert(1))",
  "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "[click](vbscript:msgbox(1))",
  '[x](https://example.com/" onmouseover="alert(1))',
  "![x](javascript:alert(1))",
  '<div style="background:url(javascript:alert(1))">x</div>',
  "<body onload=alert(1)>",
  "<details open ontoggle=alert(1)>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  "<object data=javascript:alert(1)>",
  "<embed src=javascript:alert(1)>",
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  "<base href=javascript:alert(1)//>",
  "`<script>alert(1)</script>`",
  "```html\n<script>alert(1)</script>\n```",
  "**<img src=x onerror=alert(1)>**",
  "||<script>alert(1)</script>||",
  "> <script>alert(1)</script>",
  "&lt;script&gt;alert(1)&lt;/script&gt;",
  "<scr<script>ipt>alert(1)</script>",
  '"><script>alert(1)</script>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  "[x](&#106;avascript:alert(1))",
  "<!--<script>alert(1)</script>-->",
  "<![CDATA[<script>alert(1)</script>]]>",
];

const ALLOWED_SCHEME = /^(https?:|mailto:|media\/|\/(?!\/))/i;
const URL_ATTRIBUTES = new Set([
  "href",
  "src",
  "action",
  "formaction",
  "data",
  "xlink:href",
  "srcdoc",
  "poster",
]);
const EXECUTABLE = new Set([
  "script",
  "iframe",
  "object",
  "embed",
  "svg",
  "math",
  "style",
  "form",
  "meta",
  "base",
  "link",
  "img",
]);

/** Every executable construct found in `html` (empty when inert). `allow` lists elements that may appear. */
export function executableConstructs(html: string, allow: ReadonlySet<string> = new Set()): string[] {
  const found: string[] = [];
  const elements = DomUtils.findAll((node: Element) => isTag(node), parseDocument(html).children);
  for (const element of elements) {
    if (EXECUTABLE.has(element.name) && !allow.has(element.name)) found.push(`<${element.name}>`);
    for (const [name, value] of Object.entries(element.attribs)) {
      if (/^on/i.test(name)) found.push(`${element.name}[${name}]`);
      if (name === "style") found.push(`${element.name}[style]`);
      if (URL_ATTRIBUTES.has(name) && !ALLOWED_SCHEME.test(value.trim()))
        found.push(`${element.name}[${name}=${value}]`);
    }
  }
  return found;
}
