/**
 * A Web API refusal: HTTP 200 `{"ok":false,"error":"<code>"}` (with `response_metadata.messages`
 * when Slack explains), or another status for rate limits and server trouble.
 */

/** Thrown by handlers; the server turns it into Slack's envelope. */
export class SlackApiError extends Error {
  constructor(
    /** Slack's error string (`channel_not_found`). */
    readonly error: string,
    /** `response_metadata.messages` (`[ERROR] …`). */
    readonly messages?: string[],
    /** Extra envelope fields (`needed`, `provided` for `missing_scope`). */
    readonly extra?: Record<string, string>,
    /** HTTP status. Default 200. */
    readonly status = 200,
    /** Extra headers (`Retry-After`). */
    readonly headers?: Record<string, string>,
  ) {
    super(error);
  }
}
