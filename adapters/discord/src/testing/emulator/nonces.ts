/**
 * Create Message's `nonce` and `enforce_nonce`, as Discord documents them (discord-api-docs,
 * docs/resources/message.mdx, Create Message, JSON/Form Params): `nonce` is an integer or a
 * string of up to 25 characters; with `enforce_nonce: true` it "will be checked for
 * uniqueness in the past few minutes. If another message was created by the same author with
 * the same nonce, that message will be returned and no new message will be created." The
 * emulator has one author (the bot) and keeps each nonce for `windowMs` by its clock.
 */
import { invalidFormBody } from "./api-error.js";

/** Longest string `nonce` Discord accepts. */
const MAX_NONCE = 25;

/** The nonces of the messages created in the past window, with the message objects answered. */
export class NonceLog {
  readonly #seen = new Map<string, { at: number; answer: Record<string, unknown> }>();

  /** Keep nonces `windowMs` by `now`. */
  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /**
   * The message an earlier Create Message with this payload's enforced nonce created, if
   * any within the window; refuses a malformed `nonce` (50035) either way.
   */
  earlier(json: Record<string, unknown>): Record<string, unknown> | undefined {
    const nonce = nonceOf(json);
    if (nonce === undefined || json.enforce_nonce !== true) return undefined;
    const seen = this.#seen.get(nonce);
    if (seen === undefined || this.now() - seen.at > this.windowMs) return undefined;
    return seen.answer;
  }

  /** Remember the message created for this payload's nonce. */
  remember(json: Record<string, unknown>, answer: Record<string, unknown>): void {
    const nonce = nonceOf(json);
    if (nonce !== undefined) this.#seen.set(nonce, { at: this.now(), answer });
  }
}

function nonceOf(json: Record<string, unknown>): string | undefined {
  const { nonce } = json;
  if (nonce === undefined || nonce === null) return undefined;
  if (typeof nonce === "number" && Number.isInteger(nonce)) return String(nonce);
  if (typeof nonce !== "string")
    throw invalidFormBody("nonce", "BASE_TYPE_BAD_TYPE", "Must be a string or an integer.");
  if (nonce.length > MAX_NONCE)
    throw invalidFormBody("nonce", "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_NONCE} or fewer in length.`);
  return nonce;
}
