/**
 * Signed, expiring links: `<base><key>?exp=<unix seconds>&sig=<HMAC-SHA256>`. The signature
 * covers the key and the expiry together, so editing either (a later `exp`, another key)
 * breaks it; it is compared in constant time. Keys are random, so a link says nothing of
 * the item behind it.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A host key: 16 random bytes (128 bits) in URL-safe base64, nothing else. */
export const MEDIA_KEY = /^[A-Za-z0-9_-]{22}$/;

/** Shortest secret accepted, in bytes: as long as the HMAC-SHA256 output. */
export const MIN_LINK_SECRET_BYTES = 32;

/** A signature is the whole HMAC-SHA256 (256 bits), in URL-safe base64. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** Seconds since the epoch, as the query carries them: digits only, no sign, no exponent. */
const SECONDS = /^[0-9]{1,12}$/;

/** Prefix of the signed text, so a MAC made with the same secret for anything else never passes. */
const DOMAIN = "outbox-media-link/1";

/** A fresh random key. */
export function newMediaKey(): string {
  return randomBytes(16).toString("base64url");
}

/** What a checked link names. */
export type LinkCheck =
  | { ok: true; key: string; expiresAt: number }
  | { ok: false; why: "malformed" | "bad-signature" | "expired" };

/** Signs and checks links with one secret. */
export class LinkSigner {
  readonly #secret: Buffer;

  /** `secret` of at least {@link MIN_LINK_SECRET_BYTES} bytes (a string counts its UTF-8 bytes). */
  constructor(secret: string | Uint8Array) {
    this.#secret = Buffer.from(typeof secret === "string" ? Buffer.from(secret, "utf8") : secret);
    if (this.#secret.byteLength < MIN_LINK_SECRET_BYTES)
      throw new RangeError(
        `The media host's secret must be at least ${MIN_LINK_SECRET_BYTES} bytes (got ${this.#secret.byteLength}); use randomBytes(32).toString("base64url").`,
      );
  }

  /** The query of a link to `key` that works until `expiresAt` (ms, rounded down to a second). */
  query(key: string, expiresAt: number): string {
    const exp = String(Math.floor(expiresAt / 1000));
    return `exp=${exp}&sig=${this.#mac(key, exp)}`;
  }

  /** Check the key and query of a request at time `now` (ms since the epoch). */
  check(key: string, query: URLSearchParams, now: number): LinkCheck {
    const exps = query.getAll("exp");
    const sigs = query.getAll("sig");
    const [exp = "", sig = ""] = [exps[0], sigs[0]];
    if (
      exps.length !== 1 ||
      sigs.length !== 1 ||
      !MEDIA_KEY.test(key) ||
      !SECONDS.test(exp) ||
      !SIGNATURE.test(sig)
    )
      return { ok: false, why: "malformed" };
    // Compared as text: decoding would ignore the last character's spare bits, so four
    // spellings would pass for one signature.
    if (!timingSafeEqual(Buffer.from(sig), Buffer.from(this.#mac(key, exp))))
      return { ok: false, why: "bad-signature" };
    const expiresAt = Number(exp) * 1000;
    return now >= expiresAt ? { ok: false, why: "expired" } : { ok: true, key, expiresAt };
  }

  #mac(key: string, exp: string): string {
    return createHmac("sha256", this.#secret).update(`${DOMAIN}\n${key}\n${exp}`).digest("base64url");
  }
}
