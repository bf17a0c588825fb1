/** The instrumentation scope spans and metrics are recorded under. */
export const SCOPE_NAME = "@outbox/otel";
/** Its version (the package's). */
export const SCOPE_VERSION = "0.1.0";
