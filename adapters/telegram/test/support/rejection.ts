import { GrammyError } from "grammy";
import { expect } from "vitest";

/** The `GrammyError` a Bot API call fails with (fails the test when it succeeds or fails otherwise). */
export async function rejection(call: Promise<unknown>): Promise<GrammyError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GrammyError);
  return error as GrammyError;
}
