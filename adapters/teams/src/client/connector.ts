/**
 * The thin Bot Framework connector client the transport sends through: send, update and
 * delete an activity (`POST /v3/conversations/{id}/activities`, `PUT` and `DELETE
 * …/activities/{activityId}`) over undici with keep-alive, a Bearer token from the token
 * source, a timeout, and failures thrown as core's errors. A 401 is answered once with a new
 * token (the request was refused, so nothing posted); nothing else is retried here.
 */
import { bearerCall, jsonApiFailure, jsonObject, type TokenSource, TransportError } from "@outbox/core";
import type { Dispatcher } from "undici";
import { CONNECTOR_ERRORS, type ConnectorMethod } from "./errors.js";

/** An activity as the connector takes it (the fields the adapter writes). */
export type Activity = Record<string, unknown>;

/** What the transport needs from the connector. */
export interface ConnectorClient {
  /** Send an activity to a conversation (a channel thread when `thread` names its root); resolves its id. */
  send(
    conversation: string,
    thread: string | undefined,
    activity: Activity,
    signal?: AbortSignal,
  ): Promise<string>;
  /** Replace an activity the bot sent. */
  update(conversation: string, activityId: string, activity: Activity, signal?: AbortSignal): Promise<void>;
  /** Delete an activity the bot sent. */
  remove(conversation: string, activityId: string, signal?: AbortSignal): Promise<void>;
  /** Values kept out of messages (the secret, the tokens). */
  secrets(): string[];
  /** Close the adapter's own Agent (a dispatcher given in the config stays open). */
  close(): Promise<void>;
}

/** What the client needs. */
export interface ConnectorOptions {
  serviceUrl: string;
  tokens: TokenSource;
  dispatcher: Dispatcher;
  /** Closed by `close()`: the adapter's own Agent only. */
  own?: Dispatcher;
  timeoutMs: number;
}

/** Build the client. */
export function createConnectorClient(options: ConnectorOptions): ConnectorClient {
  const base = new URL(options.serviceUrl.endsWith("/") ? options.serviceUrl : `${options.serviceUrl}/`);
  const path = (conversation: string, activityId?: string) =>
    `${base.pathname}v3/conversations/${encodeURIComponent(conversation)}/activities${
      activityId === undefined ? "" : `/${encodeURIComponent(activityId)}`
    }`;

  const api = {
    dispatcher: options.dispatcher,
    origin: base.origin,
    tokens: options.tokens,
    timeoutMs: options.timeoutMs,
    platform: "Teams",
  };
  const call = async (
    method: ConnectorMethod,
    verb: "POST" | "PUT" | "DELETE",
    target: string,
    activity: Activity | undefined,
    signal: AbortSignal | undefined,
    thread = false,
  ): Promise<Record<string, unknown> | undefined> => {
    const body = activity === undefined ? undefined : JSON.stringify(activity);
    const answer = await bearerCall(
      api,
      { name: method, method: verb, path: target, ...(body === undefined ? {} : { body }) },
      signal,
    );
    if (answer.status >= 200 && answer.status < 300) return jsonObject(answer.text);
    throw jsonApiFailure(CONNECTOR_ERRORS, { method, thread }, answer, options.tokens.secrets());
  };

  return {
    async send(conversation, thread, activity, signal) {
      const id = thread === undefined ? conversation : `${conversation};messageid=${thread}`;
      const answer = await call(
        "sendToConversation",
        "POST",
        path(id),
        activity,
        signal,
        thread !== undefined,
      );
      if (typeof answer?.id !== "string" || answer.id === "")
        // Posted, but no id to put in the receipt: as unsure as a lost answer.
        throw new TransportError("Teams sendToConversation: the connector answered without an activity id", {
          ambiguous: true,
        });
      return answer.id;
    },
    async update(conversation, activityId, activity, signal) {
      await call("updateActivity", "PUT", path(conversation, activityId), activity, signal);
    },
    async remove(conversation, activityId, signal) {
      await call("deleteActivity", "DELETE", path(conversation, activityId), undefined, signal);
    },
    secrets: () => options.tokens.secrets(),
    close: async () => {
      await options.own?.close();
    },
  };
}
