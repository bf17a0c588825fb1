/**
 * The failure of media the platform was to fetch by URL (passed through, or a media host's
 * link) when the platform says at once that it could not: a `MediaError` whose message says
 * what the platform answered and how to fix it, so no adapter words it on its own.
 */
import { MediaError } from "../errors/errors.js";

/**
 * `platform` could not fetch `url` itself and said `answer`. The URL in the message is
 * redacted like every Outbox error's (its query never shows).
 */
export function urlFetchFailed(platform: string, url: string, answer: string, cause?: unknown): MediaError {
  return new MediaError(
    "fetch-failed",
    `${platform} could not fetch ${url} itself (${answer}): the URL must answer 200 to anyone, without a redirect or a login, until the platform has fetched it (for a media host, its publicUrl must be reachable from the internet); with media.passThrough, turning it off uploads the bytes instead`,
    { ref: url, ...(cause === undefined ? {} : { cause }) },
  );
}
