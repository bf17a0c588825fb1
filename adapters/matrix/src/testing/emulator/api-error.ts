/** A Matrix error answer: HTTP status and the spec's JSON `{ errcode, error, … }`. */
export class MatrixApiError extends Error {
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The spec's error code (`M_FORBIDDEN`, `M_BAD_JSON`, …). */
    readonly errcode: string,
    message: string,
    /** Extra fields of the JSON body (`retry_after_ms`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The JSON body the homeserver sends. */
  body(): Record<string, unknown> {
    return { errcode: this.errcode, error: this.message, ...this.extra };
  }
}

/** A 400 `M_BAD_JSON` about the event content: what Synapse answers for malformed content, and the emulator for content the spec forbids. */
export function badJson(message: string): MatrixApiError {
  return new MatrixApiError(400, "M_BAD_JSON", message);
}
