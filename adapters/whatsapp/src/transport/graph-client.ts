/**
 * The thin typed Graph API client the transport sends through: JSON posts to
 * `/{version}/{phone-number-id}/messages` and streamed multipart uploads to `/media`, over
 * undici with keep-alive, Bearer auth, a timeout, and failures thrown as core's errors
 * (errors.ts). Nothing retries here: the engine retries, paces and reports.
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { jsonObject, type LoadedMedia, multipartFileName } from "@outbox/core";
import type { Dispatcher } from "undici";
import type { WhatsAppAdapterConfig } from "../types.js";
import { fromNetwork, fromResponse } from "./errors.js";
import { Agent, requestApi } from "./undici.js";

/** A Graph answer's JSON body. */
export type GraphBody = Record<string, unknown>;

/** What the transport needs from the Graph API. */
export interface GraphClient {
  /** The access token (declared to the engine as a secret). */
  readonly token: string;
  /** POST a JSON body to `/{phone-number-id}/{edge}`; resolves the answer's JSON. */
  post(edge: "messages", body: GraphBody, signal?: AbortSignal): Promise<GraphBody>;
  /** Upload one item to `/{phone-number-id}/media` as a streamed multipart body; resolves the media id. */
  upload(media: LoadedMedia, mimeType: string, signal?: AbortSignal): Promise<string>;
  /** Close the adapter's own Agent (a dispatcher given in the config stays open). */
  close(): Promise<void>;
}

/** Build the client. The config is checked by `createWhatsAppAdapter`. */
export function createGraphClient(config: WhatsAppAdapterConfig): GraphClient {
  const own = config.dispatcher === undefined ? new Agent({ keepAliveTimeout: 10_000 }) : undefined;
  const dispatcher = (config.dispatcher ?? own) as Dispatcher;
  const base = (config.graphApiUrl ?? "https://graph.facebook.com").replace(/\/+$/, "");
  const { origin, pathname } = new URL(
    `${base}/${config.apiVersion ?? "v25.0"}/${encodeURIComponent(config.phoneNumberId)}`,
  );
  const timeout = config.timeoutMs ?? 60_000;
  const authorization = `Bearer ${config.token}`;
  // undici only reads a request's headers: every JSON post shares one object.
  const jsonHeaders = { authorization, "content-type": "application/json" };

  const call = async (
    edge: string,
    headers: Record<string, string>,
    body: string | Readable,
    signal: AbortSignal | undefined,
  ): Promise<GraphBody> => {
    const method = `POST /${edge}`;
    let response: Dispatcher.ResponseData;
    try {
      response = await requestApi.call(dispatcher, {
        origin,
        path: `${pathname}/${edge}`,
        method: "POST",
        headers,
        body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal: signal ?? null,
      });
    } catch (error) {
      throw fromNetwork(error, method);
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw fromNetwork(error, method);
    }
    const json = jsonObject(text);
    if (response.statusCode >= 200 && response.statusCode < 300 && json !== undefined) return json;
    throw fromResponse(method, response.statusCode, response.headers, json, text, [config.token]);
  };

  return {
    token: config.token,
    post: (edge, body, signal) => call(edge, jsonHeaders, JSON.stringify(body), signal),
    async upload(media, mimeType, signal) {
      const form = multipart(media, mimeType);
      const answer = await call(
        "media",
        { authorization, "content-type": form.contentType, "content-length": String(form.length) },
        form.body,
        signal,
      );
      if (typeof answer.id !== "string") throw fromResponse("POST /media", 200, {}, answer, "no media id");
      return answer.id;
    },
    close: async () => {
      await own?.close();
    },
  };
}

/** A multipart body streaming the item's bytes between two small text pieces; its length is known up front. */
function multipart(media: LoadedMedia, mimeType: string) {
  const boundary = `outbox-${randomBytes(12).toString("hex")}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    `${field("messaging_product", "whatsapp")}${field("type", mimeType)}--${boundary}\r\n` +
      `content-disposition: form-data; name="file"; filename=${multipartFileName(media.fileName)}\r\ncontent-type: ${mimeType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body(): AsyncIterable<Uint8Array> {
    yield head;
    yield* media.open();
    yield tail;
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + media.size + tail.length,
    body: Readable.from(body(), { objectMode: false }),
  };
}
