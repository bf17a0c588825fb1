/**
 * Security headers. The page's CSP allows only its own nonce'd script and style, media and
 * images from itself, event-stream connections to itself, and frames from itself or https
 * (canvas embeds, which are sandboxed without `allow-same-origin`). Media responses get a
 * `sandbox` CSP so a stored file opened directly cannot run script on the inbox's origin.
 */

/** Headers of every response. */
export const COMMON_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** The page's Content-Security-Policy for one response nonce. */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self'",
    "media-src 'self'",
    "connect-src 'self'",
    "frame-src 'self' https:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join("; ");
}

/** The CSP of media and error responses: nothing runs. */
export const MEDIA_CSP = "default-src 'none'; sandbox";
