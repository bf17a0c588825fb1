/**
 * The JWT a service account signs to ask for a token (OAuth 2.0 JWT bearer grant, RFC 7523,
 * as Google documents it in "Using OAuth 2.0 for Server to Server Applications"): RS256 over
 * `{ iss, scope, aud, iat, exp }`, `aud` the token endpoint, an hour at most. Signed with
 * node:crypto: no JOSE library for one signature.
 */
import { sign } from "node:crypto";
import type { ServiceAccount } from "./service-account.js";

/** A JWT lives at most this long (Google refuses a longer one). */
export const ASSERTION_LIFE_S = 3600;

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The signed assertion for `scope`, issued at `nowMs`. */
export function signAssertion(account: ServiceAccount, scope: string, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const header = encode({ alg: "RS256", typ: "JWT", ...(account.keyId ? { kid: account.keyId } : {}) });
  const claims = encode({
    iss: account.email,
    scope,
    aud: account.tokenUri,
    iat,
    exp: iat + ASSERTION_LIFE_S,
  });
  const signature = sign("sha256", Buffer.from(`${header}.${claims}`), account.key).toString("base64url");
  return `${header}.${claims}.${signature}`;
}
