/**
 * `send` refuses a bad target or options with a `PayloadError` whose message names each
 * field and its fix (the issues list them too), before any call.
 */
import { describe, expect, it } from "vitest";
import { PayloadError } from "../../src/errors/errors.js";
import { harness } from "./support/harness.js";

describe("send input", () => {
  it.each<[string, unknown, unknown, RegExp, string[][]]>([
    [
      "options null",
      { to: "c" },
      null,
      /options must be an object or left out, got null \(pass \{\} or leave it out\)/,
      [["options"]],
    ],
    [
      "target missing",
      undefined,
      undefined,
      /target must be an object, got nothing \(pass a target like \{ to: /,
      [["target"]],
    ],
    [
      "target.to missing",
      {},
      undefined,
      /target\.to must be a non-empty string, got nothing/,
      [["target", "to"]],
    ],
    [
      "target.to empty",
      { to: "" },
      undefined,
      /target\.to must be a non-empty string, got an empty string/,
      [["target", "to"]],
    ],
    [
      "several at once",
      { to: 5, thread: "" },
      { replyMode: "sometimes", idempotencyKey: " " },
      /target\.to .*a number.*target\.thread .*an empty string.*options\.idempotencyKey .*options\.replyMode must be "first", "all" or "off", got "sometimes"/,
      [
        ["target", "to"],
        ["target", "thread"],
        ["options", "idempotencyKey"],
        ["options", "replyMode"],
      ],
    ],
  ])("%s", async (_name, target, options, message, paths) => {
    const { send, transport } = harness();
    const error = await send({ text: "hi" }, target as never, options as never).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PayloadError);
    expect((error as PayloadError).message).toMatch(message);
    expect((error as PayloadError).issues.map((issue) => issue.path)).toEqual(paths);
    expect(transport.calls).toEqual([]);
  });

  it("accepts options left out", async () => {
    const { send } = harness();
    await expect(send({ text: "hi" }, { to: "c" })).resolves.toMatchObject({ ok: true });
  });
});
