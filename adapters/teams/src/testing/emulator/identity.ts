/**
 * The emulated Microsoft identity platform: `POST /{tenant}/oauth2/v2.0/token` with the
 * client-credentials grant, on a host of its own (as login.microsoftonline.com is), checking
 * the grant, the app id and secret, the tenant and the scope, answering the identity
 * platform's errors (`invalid_client` with `AADSTS7000215`, …) or a token valid for
 * `lifetimeMs`, which the connector then accepts until it expires.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The scope a bot asks the connector's token for. */
export const BOT_FRAMEWORK_SCOPE = "https://api.botframework.com/.default";

/** What the identity platform checks. */
export interface IdentityOptions {
  clientId: string;
  clientSecret: string;
  tenantId: string;
  lifetimeMs: number;
  now: () => number;
}

/** A running identity platform. */
export interface Identity {
  /** `http://127.0.0.1:<port>/{tenant}/oauth2/v2.0/token`. */
  readonly tokenUrl: string;
  /** Tokens issued so far. */
  issued(): number;
  /** Whether the connector accepts `token` now (issued here, for its scope, not expired). */
  accepts(token: string): boolean;
  /** Make every token issued so far expire now (as if an hour passed). */
  expireAll(): void;
  /** Stop. */
  close(): Promise<void>;
}

/** Start the identity platform on 127.0.0.1. */
export async function startIdentity(options: IdentityOptions): Promise<Identity> {
  const tokens = new Map<string, number>();
  const server = createServer((req, res) => {
    answer(req, res, options, tokens).catch(() => res.destroy());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    tokenUrl: `http://127.0.0.1:${port}/${options.tenantId}/oauth2/v2.0/token`,
    issued: () => tokens.size,
    accepts: (token) => (tokens.get(token) ?? 0) > options.now(),
    expireAll: () => {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  options: IdentityOptions,
  tokens: Map<string, number>,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
  };
  const refuse = (status: number, error: string, description: string) =>
    send(status, {
      error,
      error_description: `${description}\r\nTrace ID: ${randomBytes(8).toString("hex")}`,
    });
  const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
  if (req.method !== "POST" || path !== `/${options.tenantId}/oauth2/v2.0/token`)
    return refuse(
      400,
      "invalid_request",
      `AADSTS90002: Tenant '${path.split("/")[1] ?? ""}' not found. Check to make sure you have the correct tenant ID.`,
    );
  if (!/^application\/x-www-form-urlencoded/i.test(req.headers["content-type"] ?? ""))
    return refuse(
      400,
      "invalid_request",
      "AADSTS900144: The request body must contain the following parameter: 'grant_type'.",
    );
  const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
  if (form.get("grant_type") !== "client_credentials")
    return refuse(400, "unsupported_grant_type", "AADSTS70003: The app requested an unsupported grant type.");
  if (form.get("client_id") !== options.clientId)
    return refuse(
      400,
      "unauthorized_client",
      `AADSTS700016: Application with identifier '${form.get("client_id") ?? ""}' was not found in the directory '${options.tenantId}'.`,
    );
  if (form.get("client_secret") !== options.clientSecret)
    return refuse(
      401,
      "invalid_client",
      `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${options.clientId}'.`,
    );
  if (form.get("scope") !== BOT_FRAMEWORK_SCOPE)
    return refuse(
      400,
      "invalid_scope",
      `AADSTS70011: The provided value for the input parameter 'scope' is not valid.`,
    );
  const token = `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.${randomBytes(24).toString("base64url")}`;
  tokens.set(token, options.now() + options.lifetimeMs);
  send(200, {
    token_type: "Bearer",
    expires_in: Math.floor(options.lifetimeMs / 1000),
    ext_expires_in: Math.floor(options.lifetimeMs / 1000),
    access_token: token,
  });
}
