/**
 * The emulator kit's server: what every platform emulator does around its own routes. It
 * listens on 127.0.0.1, logs each request with what it carried, applies the injected faults
 * (core's {@link serveFaults} for the connection faults; `reset` here; 429, 5xx and 400 in
 * the platform's own error shape), turns every error a request ends with into the
 * platform's error answer, and stops. An emulator supplies its routes (`handle`), its error
 * shape (`faultError`, `answerError`) and its fault targets; the rest is written once.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serveFaults } from "./emulator-faults.js";
import type { Fault } from "./observed.js";

/** One request an emulator received, as its request log holds it. */
export interface EmulatorRequest {
  /** The fault target the request goes by (its method, route or operation; see `faultTargets`). */
  method: string;
  /** HTTP status answered (0 for a dropped connection or an answer withheld). */
  status: number;
  /**
   * What the request carried, as text (its parameters and uploaded file names); absent until
   * its body was read. A request listed here reached the platform, processed or not.
   */
  content?: string;
}

/** An answer in the platform's shape. */
export interface EmulatorAnswer {
  /** HTTP status. */
  status: number;
  /** The body: sent as JSON, a string as `text/plain`; no body when absent. */
  body?: unknown;
  /** Further headers (rate-limit headers, `Retry-After`, …). */
  headers?: Record<string, string>;
}

/** The injected faults a platform answers in its own error shape. */
export type AnsweredFault = Extract<Fault, { kind: "rate-limit" | "server-error" | "reject" }>;

/** One request as an emulator's handler sees it. */
export interface EmulatorExchange<Entry extends EmulatorRequest> {
  /** The request. */
  req: IncomingMessage;
  /** Its response; write it only through the answer `handle` returns. */
  res: ServerResponse;
  /** The request's URL, resolved on the emulator. */
  url: URL;
  /** Its log entry: set `content` once the body is read, before {@link EmulatorExchange.fault}. */
  entry: Entry;
  /** The body as text, when the kit read it ({@link EmulatorServerOptions.body}); then `fault()` was applied too. */
  body: string | undefined;
  /**
   * Apply the fault queued for `entry.method`, if any; call it once the body is read (so a
   * faulted request still shows what it carried) and before the request is processed. A
   * `reset` drops the connection and ends the exchange; `rate-limit`, `server-error` and
   * `reject` throw the emulator's `faultError`; after an after-processed fault the handler
   * goes on and its answer is dropped or withheld.
   */
  fault(): void;
}

/** What a platform emulator gives the kit (see {@link serveEmulator}). */
export interface EmulatorServerOptions<Entry extends EmulatorRequest> {
  /** The names its requests go by, which a fault's `method` may target (compared without regard to case). */
  faultTargets: readonly string[];
  /** The log entry of a request as it arrives (its `method`, `status: 0`), before its body is read. */
  entry(req: IncomingMessage, url: URL): Entry;
  /**
   * Answer one request: read it, set `entry.content`, call `fault()`, process it and return
   * the platform's answer, or `undefined` when the connection was dropped instead. Throw the
   * platform's errors; {@link EmulatorServerOptions.answerError} turns them into answers.
   */
  handle(exchange: EmulatorExchange<Entry>): Promise<EmulatorAnswer | undefined>;
  /** The platform error an injected 429, 5xx or 400 throws (answered through `answerError`). */
  faultError(fault: AnsweredFault, entry: Entry): unknown;
  /** The platform's answer to what a request ended with: its own errors, and anything else as its 500. */
  answerError(error: unknown, entry: Entry): EmulatorAnswer;
  /**
   * The body the kit reads for the emulator, as text, before `handle`: of the requests whose
   * HTTP method `reads` accepts, at most `maxBytes` (over it, the error `tooLarge` gives is
   * answered). The kit then sets `entry.content` to it and applies the fault, before
   * `authenticate` and `handle`; `handle` finds the body in {@link EmulatorExchange.body}.
   * Without it `handle` reads the body and calls `fault()` itself.
   */
  body?: {
    reads(method: string | undefined): boolean;
    maxBytes: number;
    tooLarge(): unknown;
  };
  /**
   * Check the credentials of a request to one of the emulator's operations (its `entry.method`
   * is one of `faultTargets`) before `handle`, after the fault: `bearer` is the token of its
   * `Authorization: Bearer` header (undefined without one). Throw the platform's error to
   * refuse it. A request to anything else reaches `handle` unchecked (to answer its 404).
   * Only with {@link EmulatorServerOptions.body}.
   */
  authenticate?(bearer: string | undefined, entry: Entry): void;
  /** Content-Type of a JSON answer (default `application/json`). */
  jsonType?: string;
  /** Called with the server before it listens, to watch its connections. */
  prepare?(server: Server): void;
}

/** The running server of an emulator: the part of its surface every platform shares. */
export interface EmulatorServer<Entry extends EmulatorRequest> {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly requests: readonly Entry[];
  /** The names a fault's `method` may target. */
  readonly faultTargets: readonly string[];
  /** Misbehave on the next call(s); throws `UnknownFaultError` for a fault it cannot apply. */
  inject(fault: Fault): void;
  /** Connections reset by a `reset-before-write` fault before their request was written. */
  refusedConnections(): number;
  /** Stop the server and drop its connections. */
  close(): Promise<void>;
}

/**
 * What every platform emulator offers beside its own seeding and reading: its request log,
 * its fault targets, faults, its own 429 count, and `close`. Each adapter's emulator is one.
 */
export interface PlatformEmulator extends EmulatorServer<EmulatorRequest> {
  /** 429s answered under the emulator's own rate limits (injected faults not counted). */
  rateLimitRefusals(): number;
}

/** Thrown by `fault()` when a `reset` dropped the connection. */
const DROPPED = Symbol("dropped");

/** Start an emulator's server on 127.0.0.1 with a random port. */
export async function serveEmulator<Entry extends EmulatorRequest>(
  options: EmulatorServerOptions<Entry>,
): Promise<EmulatorServer<Entry>> {
  const requests: Entry[] = [];
  const jsonType = options.jsonType ?? "application/json";
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const entry = options.entry(req, url);
    requests.push(entry);
    const fault = (): void => {
      const due = faults.next(entry.method, req, res);
      if (due?.kind === "reset") {
        req.socket.destroy();
        throw DROPPED;
      }
      if (due?.kind === "rate-limit" || due?.kind === "server-error" || due?.kind === "reject")
        throw options.faultError(due, entry);
    };
    prologue(options, req, entry, fault)
      .then((body) => options.handle({ req, res, url, entry, fault, body }))
      .then((answer) => {
        entry.status = answer === undefined ? 0 : write(res, answer, jsonType);
      })
      .catch((error: unknown) => {
        if (error === DROPPED) return;
        if (!req.complete) req.resume();
        entry.status = write(res, options.answerError(error, entry), jsonType);
      });
  });
  options.prepare?.(server);
  const faults = serveFaults(server, options.faultTargets);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    faultTargets: options.faultTargets,
    inject: (fault) => faults.inject(fault),
    refusedConnections: () => faults.refusedConnections,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * What the kit does before `handle` when it reads the body: read it, log it, apply the fault,
 * authenticate a request to one of the operations. The body, or undefined when not read.
 */
async function prologue<Entry extends EmulatorRequest>(
  options: EmulatorServerOptions<Entry>,
  req: IncomingMessage,
  entry: Entry,
  fault: () => void,
): Promise<string | undefined> {
  const { body } = options;
  if (body === undefined) return undefined;
  const text = body.reads(req.method) ? await readText(req, body.maxBytes, body.tooLarge) : undefined;
  if (text !== undefined) entry.content = text;
  fault();
  const targets = options.faultTargets.map((target) => target.toLowerCase());
  if (options.authenticate !== undefined && targets.includes(entry.method.toLowerCase()))
    options.authenticate(/^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1], entry);
  return text;
}

/** The request body as UTF-8 text, at most `maxBytes`; over it, `tooLarge()` is thrown. */
async function readText(req: IncomingMessage, maxBytes: number, tooLarge: () => unknown): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Write `answer`; the status sent, or 0 when the connection is gone or a fault withheld it. */
function write(res: ServerResponse, answer: EmulatorAnswer, jsonType: string): number {
  if (res.destroyed) return 0;
  if (res.headersSent) return res.statusCode;
  const { status, body, headers = {} } = answer;
  if (body === undefined) res.writeHead(status, headers).end();
  else {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, {
      "content-type": typeof body === "string" ? "text/plain" : jsonType,
      "content-length": Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  }
  // An answer a fault dropped or withheld never ended.
  return res.writableEnded ? status : 0;
}
