/**
 * undici without its global dispatcher. Importing undici's main entry installs an undici 7
 * Agent into the global slot every undici copy shares (Node's own `fetch` included), which
 * breaks libraries bundling another undici (@discordjs/rest: `action is not a function`).
 * So core loads only the two modules it needs and always passes its own Agent.
 */
import { createRequire } from "node:module";
import type { Agent as AgentClass, Dispatcher } from "undici";

const require = createRequire(import.meta.url);

/** undici's Agent class (same class as `undici.Agent`), loaded without `undici/lib/global`. */
const Agent = require("undici/lib/dispatcher/agent.js") as typeof AgentClass;

/** undici's `request` API, called on an explicit dispatcher. */
const requestApi = require("undici/lib/api/api-request.js") as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

let sharedAgent: Dispatcher | undefined;

/** Core's own Agent, created on first use; never installed globally. */
function coreAgent(): Dispatcher {
  sharedAgent ??= new Agent({ connections: 8, keepAliveTimeout: 4_000 });
  return sharedAgent;
}

/** Sends one request through `dispatcher` (default: core's own Agent). Redirects are never followed here. */
export function sendRequest(
  options: Dispatcher.RequestOptions,
  dispatcher: Dispatcher | undefined,
): Promise<Dispatcher.ResponseData> {
  return requestApi.call(dispatcher ?? coreAgent(), options);
}
