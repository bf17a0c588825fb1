/**
 * The thin Chat API client the transport sends through: create, patch and delete a message
 * (`POST /v1/{space}/messages`, `PATCH` and `DELETE /v1/{name}`) over undici with keep-alive,
 * a Bearer token from the token source, a timeout, and failures thrown as core's errors. A
 * 401 is answered once with a new token (the request was refused, so nothing posted). A
 * create with a client-assigned `messageId` answered 409 `ALREADY_EXISTS` is the message an
 * earlier attempt created: it is named by that id, so it is answered as sent. Nothing else is
 * retried here.
 */
import {
  bearerCall,
  jsonApiFailure,
  jsonObject,
  type TextAnswer,
  type TokenSource,
  TransportError,
} from "@outbox/core";
import type { Dispatcher } from "undici";
import { CHAT_API_ERRORS, type ChatMethod, type FailedCall } from "./errors.js";
import { encodeName, formField } from "./paths.js";

/** A message as the API takes it (the fields the adapter writes). */
export type ChatMessage = Record<string, unknown>;

/** Query parameters of a create (a type, not an interface, so it is a record of strings the path reads). */
export type CreateQuery = {
  /** The client-assigned id (`client-…`). */
  messageId?: string;
  /** How a message with a thread is placed. */
  messageReplyOption?: "REPLY_MESSAGE_OR_FAIL" | "REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD";
};

/** What the transport needs from the API. */
export interface ChatClient {
  /** Create a message in `space`; resolves its name (`spaces/…/messages/…`). */
  create(space: string, message: ChatMessage, query: CreateQuery, signal?: AbortSignal): Promise<string>;
  /** Replace the fields of `updateMask` of a message the app sent. */
  patch(name: string, message: ChatMessage, updateMask: string, signal?: AbortSignal): Promise<void>;
  /** Delete a message the app sent. */
  remove(name: string, signal?: AbortSignal): Promise<void>;
  /** Close the adapter's own Agent (a dispatcher given in the config stays open). */
  close(): Promise<void>;
}

/** What the client needs. */
export interface ChatClientOptions {
  apiUrl: string;
  tokens: TokenSource;
  dispatcher: Dispatcher;
  /** Closed by `close()`: the adapter's own Agent only. */
  own?: Dispatcher;
  timeoutMs: number;
}

type Verb = "POST" | "PATCH" | "DELETE";

/** Build the client. */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const base = new URL(options.apiUrl.endsWith("/") ? options.apiUrl : `${options.apiUrl}/`);
  const path = (name: string, query?: Record<string, string | undefined>) => {
    let search = "";
    for (const key in query) {
      const value = query[key];
      if (value !== undefined) search += `${search === "" ? "?" : "&"}${formField(key, value)}`;
    }
    return `${base.pathname}v1/${encodeName(name)}${search}`;
  };

  const api = {
    dispatcher: options.dispatcher,
    origin: base.origin,
    tokens: options.tokens,
    timeoutMs: options.timeoutMs,
    platform: "Google Chat",
  };
  /** One call (once more with a new token after a 401); the answer whatever its status. */
  const call = (
    method: ChatMethod,
    verb: Verb,
    target: string,
    message: ChatMessage | undefined,
    signal: AbortSignal | undefined,
  ): Promise<TextAnswer> =>
    bearerCall(
      api,
      message === undefined
        ? { name: method, method: verb, path: target }
        : { name: method, method: verb, path: target, body: JSON.stringify(message) },
      signal,
    );

  const fail = (failed: FailedCall, answer: TextAnswer) =>
    jsonApiFailure(CHAT_API_ERRORS, failed, answer, options.tokens.secrets());
  const ok = (answer: TextAnswer) => answer.status >= 200 && answer.status < 300;

  return {
    async create(space, message, query, signal) {
      const failed: FailedCall = { method: "spaces.messages.create", thread: message.thread !== undefined };
      const answer = await call(failed.method, "POST", path(`${space}/messages`, query), message, signal);
      // A message with a client-assigned id is named by it too: the same name whichever attempt created it.
      if (query.messageId !== undefined) {
        if (ok(answer) || (answer.status === 409 && /ALREADY_EXISTS/.test(answer.text)))
          return `${space}/messages/${query.messageId}`;
      }
      if (!ok(answer)) throw fail(failed, answer);
      const name = jsonObject(answer.text)?.name;
      if (typeof name !== "string" || name === "")
        // Posted, but no name to put in the receipt: as unsure as a lost answer.
        throw new TransportError(
          "Google Chat spaces.messages.create: the API answered without a message name",
          {
            ambiguous: true,
          },
        );
      return name;
    },
    async patch(name, message, updateMask, signal) {
      const answer = await call(
        "spaces.messages.patch",
        "PATCH",
        path(name, { updateMask }),
        message,
        signal,
      );
      if (!ok(answer)) throw fail({ method: "spaces.messages.patch" }, answer);
    },
    async remove(name, signal) {
      const answer = await call("spaces.messages.delete", "DELETE", path(name), undefined, signal);
      if (!ok(answer)) throw fail({ method: "spaces.messages.delete" }, answer);
    },
    close: async () => {
      await options.own?.close();
    },
  };
}
