/**
 * A Bot API error answer: the emulator throws it, the server turns it into the JSON envelope.
 */

/** `{ ok: false, error_code, description, parameters? }` as an exception. */
export class ApiError extends Error {
  constructor(
    /** `error_code` (and HTTP status). */
    readonly code: number,
    /** `description`, e.g. "Bad Request: message is too long". */
    readonly description: string,
    /** `parameters`, e.g. `{ retry_after }`. */
    readonly parameters?: { retry_after?: number },
  ) {
    super(description);
  }
}

/** A 400 with Telegram's "Bad Request: " prefix. */
export function badRequest(tail: string): ApiError {
  return new ApiError(400, `Bad Request: ${tail}`);
}
