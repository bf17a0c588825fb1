/**
 * undici without its global dispatcher (as core loads it): importing undici's main entry would
 * install an Agent into the global slot every undici copy shares, Node's `fetch` included.
 */
import { createRequire } from "node:module";
import type { Agent as AgentClass, Dispatcher } from "undici";

const require = createRequire(import.meta.url);

/** undici's Agent class, loaded without `undici/lib/global`. */
export const Agent = require("undici/lib/dispatcher/agent.js") as typeof AgentClass;

/** undici's `request` API, called on an explicit dispatcher. */
export const requestApi = require("undici/lib/api/api-request.js") as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;
