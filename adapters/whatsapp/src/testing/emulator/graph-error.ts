/**
 * A Graph API refusal, answered as Graph does:
 * `{ error: { message: "(#<code>) <title>", type, code, error_data: { messaging_product, details }, fbtrace_id } }`.
 */
import { randomBytes } from "node:crypto";

/** Thrown by handlers; the server turns it into Graph's error envelope. */
export class GraphApiError extends Error {
  constructor(
    /** Graph error code (`131030`). */
    readonly code: number,
    /** Short title (`Recipient phone number not in allowed list`). */
    readonly title: string,
    /** `error_data.details`: what exactly is wrong. */
    readonly details: string,
    /** HTTP status. Default 400. */
    readonly status = 400,
    /** Extra headers. */
    readonly headers: Record<string, string> = {},
  ) {
    super(`(#${code}) ${title}`);
  }

  /** The JSON body Graph answers. */
  body(): unknown {
    return {
      error: {
        message: this.message,
        type: "OAuthException",
        code: this.code,
        error_data: { messaging_product: "whatsapp", details: this.details },
        fbtrace_id: `A${randomBytes(9).toString("base64url")}`,
      },
    };
  }
}

/** Error 100 naming the parameter, as Graph does (`Param text['body'] …`). */
export function invalidParameter(details: string): GraphApiError {
  return new GraphApiError(100, "Invalid parameter", details);
}
