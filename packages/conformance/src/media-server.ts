import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { createRequire } from "node:module";
import type { LookupFunction } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSelfHostedMedia, type MediaHost, type MediaPolicy } from "@outbox/core";
import type { Agent as AgentClass } from "undici";
import { type FixtureName, fixturePath, fixtures, fixturesDir } from "./fixtures.js";
import { fixtureTls } from "./tls.js";

/** Host name of the fixture media server; the policy maps it to 127.0.0.1 and allows it. */
export const MEDIA_HOST = "media.outbox.test";
/** Host name of the decoy server; it resolves to 127.0.0.1 but is NOT allowed, so it must never be fetched. */
export const DECOY_HOST = "decoy.outbox.test";

/** The fixture media server, the decoy, and the policy a harness builds its adapter with. */
export interface ConformanceMedia {
  /**
   * Media policy for the adapter under test: `lookup` maps {@link MEDIA_HOST} and
   * {@link DECOY_HOST} to 127.0.0.1, `allowHosts` holds only {@link MEDIA_HOST}, the
   * `dispatcher` trusts the fixture certificate, `localRoots` is the fixtures directory.
   */
  policy: MediaPolicy;
  /** PEM of the self-signed certificate both servers use, for an emulator that fetches the URLs itself. */
  ca: string;
  /** https URL of a fixture; `variant` adds `?n=<variant>` so the same file can appear twice. */
  url(name: FixtureName, variant?: number): string;
  /** Absolute path of a fixture (inside `policy.localRoots`). */
  file(name: FixtureName): string;
  /** A path inside `policy.localRoots` that does not exist. */
  missingFile: string;
  /** A real file OUTSIDE `policy.localRoots`, with content {@link ConformanceMedia.outsideFileText}. */
  outsideFile: string;
  /** Content of {@link ConformanceMedia.outsideFile}; must never reach the platform. */
  outsideFileText: string;
  /** The decoy server: any connection to it is a policy failure. */
  decoy: {
    /** URLs the policy must refuse; each points at the decoy (private IP, disallowed host, `http:`, `localhost`). */
    blockedUrls: string[];
    /** Connections the decoy accepted so far (TLS or not, completed or not). */
    connections(): number;
  };
  /** Requests the fixture server answered so far (paths with query). */
  served(): string[];
  /**
   * A self-hosted media host served by the fixture server under `/hosted/` (so an emulator
   * that fetches the fixtures fetches its links too), for the hosted media cases.
   */
  host: MediaHost;
  /** The origin and path its links start with (`https://media.outbox.test:<port>/hosted/`). */
  hostedPrefix: string;
}

let started: Promise<ConformanceMedia> | undefined;

/**
 * undici's Agent loaded without undici's main entry, which would install a global
 * dispatcher shared by every undici copy (and break client libraries bundling another).
 */
const Agent = createRequire(import.meta.url)("undici/lib/dispatcher/agent.js") as typeof AgentClass;

/**
 * The process-wide fixture media server and decoy, started on first use on 127.0.0.1
 * (random ports, https with a self-signed certificate made at start, see tls.ts). Servers are unref'd
 * so they never keep the process alive.
 */
export function conformanceMedia(): Promise<ConformanceMedia> {
  started ??= start();
  return started;
}

// --- internal ---

async function start(): Promise<ConformanceMedia> {
  const tls = fixtureTls();
  const served: string[] = [];
  const byFile = new Map<string, FixtureName>(
    (Object.keys(fixtures) as FixtureName[]).map((name) => [fixtures[name].fileName, name]),
  );
  let host: ReturnType<typeof createSelfHostedMedia> | undefined;
  const media = createServer(tls, (req, res) => {
    const url = new URL(req.url ?? "/", "https://x");
    served.push(`${url.pathname}${url.search}`);
    if (url.pathname.startsWith(HOSTED_PATH) && host !== undefined) {
      host.listener(req, res);
      return;
    }
    const name = byFile.get(url.pathname.slice(1));
    if (!name) {
      res.writeHead(404).end();
      return;
    }
    const body = readFileSync(fixturePath(name));
    res.writeHead(200, { "content-type": fixtures[name].mimeType, "content-length": body.length });
    res.end(body);
  });
  let decoyConnections = 0;
  // Every answer closes its connection, so a pooled client must connect again and is counted.
  const decoy = createServer(tls, (_req, res) => {
    res
      .writeHead(200, { "content-type": "image/png", connection: "close" })
      .end(readFileSync(fixturePath("png")));
  });
  decoy.on("connection", () => {
    decoyConnections += 1;
  });
  const mediaPort = await listen(media);
  const hostedPrefix = `https://${MEDIA_HOST}:${mediaPort}${HOSTED_PATH}`;
  host = createSelfHostedMedia({
    publicUrl: hostedPrefix,
    secret: randomBytes(32).toString("base64url"),
    store: mkdtempSync(join(tmpdir(), "outbox-conformance-hosted-")),
    // Expired links are never served; sweeping is left undone so no timer keeps the process alive.
    sweepEveryMs: 0,
  });
  const decoyPort = await listen(decoy);
  const outsideDir = mkdtempSync(join(tmpdir(), "outbox-conformance-outside-"));
  const outsideFileText = "outbox conformance: this file lies outside localRoots and must never be sent\n";
  const outsideFile = join(outsideDir, "secret.txt");
  writeFileSync(outsideFile, outsideFileText);
  return {
    policy: {
      lookup: fixtureLookup,
      allowHosts: [MEDIA_HOST],
      dispatcher: new Agent({ connect: { ca: tls.cert } }),
      localRoots: [fixturesDir],
      workspaceDir: fixturesDir,
      timeoutMs: 5_000,
    },
    ca: tls.cert,
    url: (name, variant) =>
      `https://${MEDIA_HOST}:${mediaPort}/${fixtures[name].fileName}${variant === undefined ? "" : `?n=${variant}`}`,
    file: fixturePath,
    missingFile: join(fixturesDir, "missing.png"),
    outsideFile,
    outsideFileText,
    decoy: {
      blockedUrls: [
        `https://127.0.0.1:${decoyPort}/private-ip.png`,
        `https://${DECOY_HOST}:${decoyPort}/resolves-private.png`,
        `http://${MEDIA_HOST}:${decoyPort}/plain-http.png`,
        `https://localhost:${decoyPort}/localhost.png`,
      ],
      connections: () => decoyConnections,
    },
    served: () => [...served],
    host,
    hostedPrefix,
  };
}

/** Where the fixture server mounts the media host. */
const HOSTED_PATH = "/hosted/";

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}

/** `dns.lookup`-compatible: the two fixture hosts resolve to 127.0.0.1, anything else fails. */
const fixtureLookup = ((hostname: string, options: unknown, callback: unknown) => {
  const done = (typeof options === "function" ? options : callback) as (
    err: NodeJS.ErrnoException | null,
    address?: string | Array<{ address: string; family: number }>,
    family?: number,
  ) => void;
  const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all === true;
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host !== MEDIA_HOST && host !== DECOY_HOST) {
    const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    error.code = "ENOTFOUND";
    process.nextTick(done, error);
    return;
  }
  if (all) process.nextTick(done, null, [{ address: "127.0.0.1", family: 4 }]);
  else process.nextTick(done, null, "127.0.0.1", 4);
}) as LookupFunction;
