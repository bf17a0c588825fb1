/**
 * The emulated Google token endpoint (`POST {token_uri}`, OAuth 2.0 JWT bearer grant) on a
 * host of its own, as oauth2.googleapis.com is: it verifies the assertion as Google does
 * ("Using OAuth 2.0 for Server to Server Applications"): RS256 signed by the service
 * account's key, `iss` the account, `aud` this endpoint, `scope` present, `exp` at most an
 * hour after `iat` and not past. It answers Google's errors (`invalid_grant` "Invalid JWT
 * Signature.", …) or a token for the scopes asked, which the Chat API then accepts until it
 * expires. The key pair is made once per process: RSA generation is slow, and every
 * emulator of a test run may share it.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, verify } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The grant a service account's JWT is exchanged by. */
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** The emulator's service account, but for its `token_uri`. */
export const EMULATOR_ACCOUNT = {
  type: "service_account",
  project_id: "outbox-emulator",
  private_key_id: "0123456789abcdef0123456789abcdef01234567",
  client_email: "outbox-chat-app@outbox-emulator.iam.gserviceaccount.com",
  client_id: "100000000000000000001",
} as const;

let pair: { privatePem: string; publicKey: KeyObject } | undefined;

/** The process's emulated key pair. */
function keyPair(): { privatePem: string; publicKey: KeyObject } {
  if (pair === undefined) {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    pair = {
      privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      publicKey: createPublicKey(privateKey),
    };
  }
  return pair;
}

/** What the endpoint checks. */
export interface IdentityOptions {
  lifetimeMs: number;
  now: () => number;
}

/** A running token endpoint. */
export interface Identity {
  /** `http://127.0.0.1:<port>/token`. */
  readonly tokenUrl: string;
  /** The service account's JSON key, its `token_uri` this endpoint. */
  readonly credentials: Record<string, string>;
  /** Tokens issued so far. */
  issued(): number;
  /** The scopes of `token` when it is one issued here and not expired. */
  scopes(token: string): string[] | undefined;
  /** Make every token issued so far expire now. */
  expireAll(): void;
  /** Stop. */
  close(): Promise<void>;
}

/** Start the endpoint on 127.0.0.1. */
export async function startIdentity(options: IdentityOptions): Promise<Identity> {
  const tokens = new Map<string, { expires: number; scopes: string[] }>();
  const { privatePem, publicKey } = keyPair();
  const server = createServer((req, res) => {
    answer(req, res, { ...options, publicKey, tokenUrl }, tokens).catch(() => res.destroy());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const tokenUrl = `http://127.0.0.1:${port}/token`;
  return {
    tokenUrl,
    credentials: { ...EMULATOR_ACCOUNT, private_key: privatePem, token_uri: tokenUrl },
    issued: () => tokens.size,
    scopes: (token) => {
      const held = tokens.get(token);
      return held !== undefined && held.expires > options.now() ? held.scopes : undefined;
    },
    expireAll: () => {
      for (const held of tokens.values()) held.expires = 0;
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

interface Checked extends IdentityOptions {
  publicKey: KeyObject;
  tokenUrl: string;
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  options: Checked,
  tokens: Map<string, { expires: number; scopes: string[] }>,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
  };
  const refuse = (error: string, description: string) => send(400, { error, error_description: description });
  if (req.method !== "POST" || new URL(req.url ?? "/", "http://127.0.0.1").pathname !== "/token")
    return send(404, { error: "not_found" });
  if (!/^application\/x-www-form-urlencoded/i.test(req.headers["content-type"] ?? ""))
    return refuse("invalid_request", "Invalid Content-Type; application/x-www-form-urlencoded expected.");
  const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
  if (form.get("grant_type") !== JWT_BEARER)
    return refuse("unsupported_grant_type", `Invalid grant_type: ${form.get("grant_type") ?? ""}`);
  const parts = (form.get("assertion") ?? "").split(".");
  const [header, claims] = parts.map((part) => decode(part));
  if (parts.length !== 3 || header === undefined || claims === undefined)
    return refuse("invalid_grant", "Invalid JWT: the assertion is not a signed JWT.");
  if (header.alg !== "RS256") return refuse("invalid_grant", "Invalid JWT: alg must be RS256.");
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
  if (!verify("sha256", signed, options.publicKey, Buffer.from(parts[2] ?? "", "base64url")))
    return refuse("invalid_grant", "Invalid JWT Signature.");
  if (claims.iss !== EMULATOR_ACCOUNT.client_email)
    return refuse("invalid_grant", "Invalid JWT: the issuer is not this service account.");
  if (claims.aud !== options.tokenUrl)
    return refuse(
      "invalid_grant",
      "Invalid JWT: Failed audience check. The expected value is the token endpoint.",
    );
  const nowS = options.now() / 1000;
  const { iat, exp } = claims;
  if (
    typeof iat !== "number" ||
    typeof exp !== "number" ||
    exp - iat > 3600 ||
    exp <= nowS ||
    iat > nowS + 300
  )
    return refuse(
      "invalid_grant",
      "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.",
    );
  if (typeof claims.scope !== "string" || claims.scope.trim() === "")
    return refuse("invalid_scope", "Invalid OAuth scope or ID token audience provided.");
  const token = `ya29.emulator-${randomBytes(24).toString("base64url")}`;
  tokens.set(token, { expires: options.now() + options.lifetimeMs, scopes: claims.scope.split(/\s+/) });
  send(200, { access_token: token, expires_in: Math.floor(options.lifetimeMs / 1000), token_type: "Bearer" });
}

function decode(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
