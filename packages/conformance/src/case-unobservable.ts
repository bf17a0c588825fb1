import type { CaseContext } from "./types.js";

/**
 * Thrown by a case, outside strict mode, when the harness cannot make an observation the
 * case needs (a harness without `rateLimitRefusals()`): `runCase` reports the case skipped.
 */
export class CaseUnobservableError extends Error {
  override readonly name = "CaseUnobservableError";
}

/**
 * The harness cannot observe what the case judges: fail in strict mode (naming what is
 * missing and how to add it), else skip the case with that reason.
 */
export function unobservable(ctx: CaseContext, reason: string): never {
  if (ctx.strict) throw new Error(`strict mode: ${reason}`);
  throw new CaseUnobservableError(reason);
}
