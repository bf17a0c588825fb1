/**
 * The sanitizer every stored HTML fragment passes (sanitize-html): a whitelist of the
 * elements and attributes the renderer produces. Anything else (a `<script>`, an event
 * handler, a `javascript:` URL, an unknown element) is dropped or escaped, so even a
 * renderer bug cannot put an executable construct on the page.
 */
import sanitize from "sanitize-html";
import { passWhitelisted } from "./whitelisted-html.js";

const OPTIONS: sanitize.IOptions = {
  allowedTags: [
    "p",
    "br",
    "strong",
    "em",
    "del",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "hr",
    "a",
    "span",
  ],
  allowedAttributes: { a: ["href", "rel", "target"], code: ["class"], span: ["class"], ol: ["start"] },
  allowedClasses: { code: [/^language-[\w#+.-]{1,32}$/], span: ["ob-spoiler"] },
  allowedSchemes: ["https", "http", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "escape",
  transformTags: {
    a: sanitize.simpleTransform("a", { rel: "noopener noreferrer nofollow", target: "_blank" }),
  },
};

/**
 * Sanitize an HTML fragment to the inbox's whitelist. The renderer's own output takes a
 * linear fast path with the same result (whitelisted-html.ts); the rest goes through
 * sanitize-html.
 */
export function sanitizeHtml(html: string): string {
  return passWhitelisted(html) ?? parseAndSanitize(html);
}

/** Sanitize with sanitize-html itself (the fast path's reference). */
export function parseAndSanitize(html: string): string {
  return sanitize(html, OPTIONS);
}
