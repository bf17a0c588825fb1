/**
 * The `WebClient`'s logger, with every line redacted: the client logs what Slack (or a proxy
 * in front of it) puts in `response_metadata.messages` and in failed requests, which may echo
 * the request, token included (`[ERROR] web-api:WebClient:0 token xoxb-…`). Lines go to the
 * integrator's logger when one was given in `clientOptions.logger` (wrapped: it still gets
 * the `setName`/`setLevel` calls the client makes on any logger it is given, and nothing
 * else changes on it), else to the console as the client's own console logger writes them.
 */
import { inspect } from "node:util";
import { redactError, redactSecrets } from "@outbox/core";
import { type Logger, LogLevel } from "@slack/web-api";

const SEVERITY: Record<LogLevel, number> = {
  [LogLevel.ERROR]: 400,
  [LogLevel.WARN]: 300,
  [LogLevel.INFO]: 200,
  [LogLevel.DEBUG]: 100,
};

/** One logged value, redacted: strings and errors keep their type, anything else becomes text. */
function redactArg(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (value instanceof Error) return redactError(value, secrets);
  return redactSecrets(inspect(value, { depth: 4, breakLength: Number.POSITIVE_INFINITY }), secrets);
}

/**
 * What the client's console logger does, for when the integrator gave no logger, redacting
 * only the lines its level lets through: the client logs several debug lines per call (the
 * request's and the answer's JSON among them), which the default level drops.
 */
function consoleLogger(secrets: readonly string[]): Logger {
  let level = LogLevel.ERROR;
  let name = "";
  const write =
    (at: LogLevel, method: "debug" | "info" | "warn" | "error") =>
    (...msg: unknown[]) => {
      if (SEVERITY[at] >= SEVERITY[level])
        console[method](`[${at.toUpperCase()}] `, name, ...msg.map((arg) => redactArg(arg, secrets)));
    };
  return {
    debug: write(LogLevel.DEBUG, "debug"),
    info: write(LogLevel.INFO, "info"),
    warn: write(LogLevel.WARN, "warn"),
    error: write(LogLevel.ERROR, "error"),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: (next) => {
      name = next;
    },
  };
}

/** A logger that redacts `secrets` (and every known credential shape) from each line before `inner` gets it. */
export function redactingLogger(secrets: readonly string[], inner?: Logger): Logger {
  if (inner === undefined) return consoleLogger(secrets);
  const redacted =
    (write: (...msg: unknown[]) => void) =>
    (...msg: unknown[]) =>
      write(...msg.map((arg) => redactArg(arg, secrets)));
  return {
    debug: redacted((...msg) => inner.debug(...msg)),
    info: redacted((...msg) => inner.info(...msg)),
    warn: redacted((...msg) => inner.warn(...msg)),
    error: redacted((...msg) => inner.error(...msg)),
    setLevel: (level) => inner.setLevel(level),
    getLevel: () => inner.getLevel(),
    setName: (name) => inner.setName(name),
  };
}
