import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { OutboxError, PayloadError, PlatformError, TransportError } from "../../src/errors/errors.js";
import { harness } from "./support/harness.js";

const to = { to: "chat1" };
const token = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1";

describe("receipts serialize", () => {
  it("JSON.stringify(receipt) keeps each error's name, code, message, fields and cause", async () => {
    const { send, transport } = harness({}, { secrets: ["hunter2-secret"] });
    transport.behave(() => {
      const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
      throw new TransportError("Telegram sendMessage: socket hang up", { ambiguous: true, cause: reset });
    });
    const receipt = await send({ text: "hello" }, to);
    const [failure] = JSON.parse(JSON.stringify(receipt)).failures;
    expect(failure.error).toEqual({
      name: "TransportError",
      code: "transport_error",
      message: "Telegram sendMessage: socket hang up",
      ambiguous: true,
      cause: { name: "Error", code: "ECONNRESET", message: "read ECONNRESET" },
    });
    expect(failure.ambiguous).toBe(true);
    expect(failure.action).toContain("may have been delivered");
  });

  it("never serializes a secret: declared secrets and known token shapes in every field and the cause", async () => {
    const { send, transport } = harness({}, { secrets: ["hunter2-secret"] });
    transport.behave(() => {
      throw new PlatformError("refused", {
        method: "sendMessage",
        status: 400,
        description: `bad request for hunter2-secret at https://api.telegram.org/bot${token}/x`,
        cause: new Error(`GET https://api.telegram.org/bot${token}/sendMessage with hunter2-secret`),
      });
    });
    const text = JSON.stringify(await send({ text: "hello" }, to));
    expect(text).toContain("bad request for");
    expect(text).not.toContain("hunter2-secret");
    expect(text).not.toContain(token);
    // An error built outside the engine: known token shapes still go.
    const outside = new PlatformError("refused", {
      method: "sendMessage",
      status: 400,
      description: `token ${token}`,
    });
    expect(JSON.stringify(outside)).not.toContain(token);
    expect(JSON.parse(JSON.stringify(outside))).toMatchObject({ method: "sendMessage", status: 400 });
  });

  it("the receipt itself keeps live errors: instanceof holds, and what console.error prints has the message and no secret", async () => {
    const { send, transport } = harness({}, { secrets: ["hunter2-secret"] });
    transport.behave(() => {
      throw new PlatformError("refused for hunter2-secret", {
        method: "sendMessage",
        status: 400,
        description: "bad request for hunter2-secret",
        cause: new Error("cause: hunter2-secret"),
      });
    });
    const receipt = await send({ text: "hello" }, to);
    const [failure] = receipt.failures;
    expect(failure?.error).toBeInstanceOf(PlatformError);
    expect(failure?.error).toBeInstanceOf(OutboxError);
    // console.error formats with util.inspect: the stack, the fields and the cause.
    const printed = inspect(receipt, { depth: 8 });
    expect(printed).toContain("PlatformError: refused for <redacted>");
    expect(printed).toContain("bad request for <redacted>");
    expect(printed).toContain(failure?.action);
    expect(printed).not.toContain("hunter2-secret");
  });

  it("a thrown PayloadError logs its issues", () => {
    const error = new PayloadError("bad", [{ path: ["text"], message: "too long", code: "too_big" }]);
    expect(JSON.parse(JSON.stringify({ error }))).toEqual({
      error: {
        name: "PayloadError",
        code: "payload_invalid",
        message: "bad",
        issues: [{ path: ["text"], message: "too long", code: "too_big" }],
      },
    });
  });
});
