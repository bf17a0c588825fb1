/** A Discord API error answer: HTTP status and Discord's JSON `{ code, message, errors? }`. */
export class DiscordApiError extends Error {
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** Discord's error code (0 for generic HTTP errors). */
    readonly code: number,
    message: string,
    /** Field errors of a 50035, Discord's nested `_errors` shape. */
    readonly errors?: unknown,
    /** Extra response headers. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The JSON body Discord sends. */
  body(): Record<string, unknown> {
    return { code: this.code, message: this.message, ...(this.errors ? { errors: this.errors } : {}) };
  }
}

/** A 50035 Invalid Form Body naming the field (`content`, `attachments`, `message_reference`). */
export function invalidFormBody(field: string, code: string, message: string): DiscordApiError {
  return new DiscordApiError(400, 50035, "Invalid Form Body", {
    [field]: { _errors: [{ code, message }] },
  });
}
