/**
 * undici 7 (the version core, the WhatsApp and the Matrix adapters use) for the bare sides of
 * the suites, loaded without its global dispatcher: installing it would break the undici 6
 * that @discordjs/rest bundles in this same process.
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
