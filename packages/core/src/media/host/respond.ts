/**
 * The host's answers written out: as a fetch `Response`, or straight to a Node response
 * (no `Request` is built there, so methods fetch refuses to construct, such as CONNECT or
 * TRACE, still get their 405). Bodies are pulled one chunk at a time, as the client reads.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { answerHosted, type HostedAnswer, type ServeContext } from "./serve-hosted.js";

/** Answered when the request line cannot be read as a URL. */
const BAD_REQUEST: HostedAnswer = { status: 400, headers: { "X-Content-Type-Options": "nosniff" } };

/** A stream that asks `source` for a chunk only when the reader wants one. */
function pulled(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Answer a fetch `Request`. */
export async function answerFetch(context: ServeContext, request: Request): Promise<Response> {
  const answer = await answerHosted(context, {
    method: request.method,
    url: new URL(request.url),
    range: request.headers.get("range"),
  });
  return new Response(answer.body && pulled(answer.body), { status: answer.status, headers: answer.headers });
}

/** Answer a Node request; never throws (a client gone mid-body only ends the stream). */
export async function answerNode(context: ServeContext, request: IncomingMessage, response: ServerResponse) {
  try {
    // The path and query only: the origin here is a placeholder, never the Host header.
    const url = URL.canParse(request.url ?? "", "http://host.invalid")
      ? new URL(request.url ?? "", "http://host.invalid")
      : undefined;
    const range = request.headers.range ?? null;
    const answer =
      url === undefined
        ? BAD_REQUEST
        : await answerHosted(context, { method: request.method ?? "", url, range });
    response.writeHead(answer.status, answer.headers);
    if (answer.body === undefined) response.end();
    else await pipeline(answer.body, response);
  } catch {
    if (response.headersSent) response.destroy();
    else response.writeHead(500, { "X-Content-Type-Options": "nosniff" }).end();
  }
}
