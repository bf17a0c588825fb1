/**
 * undici without its global dispatcher. Importing undici's main entry installs an undici 7
 * Agent into the global slot every undici copy shares (Node's own `fetch` included), which
 * breaks libraries bundling another undici (@discordjs/rest: `action is not a function`).
 * So core loads only the two modules it needs and always passes its own Agent. They are
 * loaded on the first remote media request: a process that never fetches a URL never pays
 * their start-up.
 */
import { createRequire } from "node:module";
import type { LookupFunction } from "node:net";
import type { Agent as AgentClass, Dispatcher } from "undici";

const require = createRequire(import.meta.url);

/** undici's `request` API, called on an explicit dispatcher. */
type RequestApi = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

let requestApi: RequestApi | undefined;
let sharedAgent: Dispatcher | undefined;

/**
 * Connections of core's agent never resolve names: requests are addressed to the checked
 * IP (see `fetchGuarded`), for which Node skips the lookup. Should a name ever reach the
 * connector, this lookup fails the connection instead of resolving it unchecked.
 */
const refuseToResolve: LookupFunction = (hostname, _options, callback) => {
  const error = Object.assign(new Error(`refusing to resolve ${hostname}: media connections are pinned`), {
    code: "ENOTPINNED",
  });
  process.nextTick(() => callback(error, "", 0));
};

/**
 * A new undici Agent (the class `undici.Agent` is), loaded without `undici/lib/global`: for
 * an adapter's own keep-alive pool, or an emulator's fetcher.
 */
export function undiciAgent(options: AgentClass.Options): AgentClass {
  const Agent = require("undici/lib/dispatcher/agent.js") as typeof AgentClass;
  return new Agent(options);
}

/** Core's own Agent, created on first use; never installed globally. */
function coreAgent(): Dispatcher {
  sharedAgent ??= undiciAgent({
    connections: 8,
    keepAliveTimeout: 4_000,
    connect: { lookup: refuseToResolve },
  });
  return sharedAgent;
}

/** Sends one request through `dispatcher` (default: core's own Agent). Redirects are never followed here. */
export function sendRequest(
  options: Dispatcher.RequestOptions,
  dispatcher: Dispatcher | undefined,
): Promise<Dispatcher.ResponseData> {
  requestApi ??= require("undici/lib/api/api-request.js") as RequestApi;
  return requestApi.call(dispatcher ?? coreAgent(), options);
}
