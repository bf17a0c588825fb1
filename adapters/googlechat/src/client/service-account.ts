/**
 * The service account's key, read once when the adapter is built: the JSON key (object or
 * text) checked for its address and a private key Node can load, so a wrong key is a
 * `ConfigError` before any call. The key's text is never put in an error: only the field.
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { ConfigError } from "@outbox/core";
import type { ServiceAccountKey } from "../types.js";

/** Google's token endpoint, written into every key Google issues. */
export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";

/** A key ready to sign with. */
export interface ServiceAccount {
  /** The JWT's issuer. */
  email: string;
  /** The loaded private key. */
  key: KeyObject;
  /** The key's id, for the JWT header. */
  keyId?: string;
  /** Where tokens are asked for. */
  tokenUri: string;
  /** The PEM text, to keep out of any message. */
  pem: string;
}

const FIX =
  "createGoogleChatAdapter({ credentials: JSON.parse(process.env.OUTBOX_GOOGLECHAT_CREDENTIALS) }) with the service account's JSON key (docs/adapters/googlechat.md)";

const wrong = (field: string, what: string) =>
  new ConfigError("createGoogleChatAdapter", what, { field, fix: FIX });

/** Read a key, or throw a `ConfigError` naming the field. */
export function readServiceAccount(credentials: ServiceAccountKey | string): ServiceAccount {
  let key: unknown = credentials;
  if (typeof credentials === "string") {
    try {
      key = JSON.parse(credentials);
    } catch {
      throw wrong("credentials", "is not JSON (give the service account's JSON key file's content)");
    }
  }
  if (typeof key !== "object" || key === null || Array.isArray(key))
    throw wrong("credentials", "is not a JSON key object");
  const fields = key as Record<string, unknown>;
  if (typeof fields.client_email !== "string" || !fields.client_email.includes("@"))
    throw wrong("credentials.client_email", "is missing");
  if (typeof fields.private_key !== "string" || fields.private_key === "")
    throw wrong("credentials.private_key", "is missing");
  const tokenUri = fields.token_uri ?? GOOGLE_TOKEN_URI;
  if (typeof tokenUri !== "string" || !/^https?:\/\//.test(tokenUri) || !URL.canParse(tokenUri))
    throw wrong("credentials.token_uri", "is not an http(s) URL");
  let loaded: KeyObject;
  try {
    loaded = createPrivateKey(fields.private_key);
  } catch {
    // Node's message can quote the PEM's first line: none of it is repeated.
    throw wrong("credentials.private_key", "is not a PEM private key Node can load");
  }
  if (loaded.asymmetricKeyType !== "rsa") throw wrong("credentials.private_key", "is not an RSA key");
  return {
    email: fields.client_email,
    key: loaded,
    ...(typeof fields.private_key_id === "string" ? { keyId: fields.private_key_id } : {}),
    tokenUri,
    pem: fields.private_key,
  };
}
