/**
 * Nothing the user sent is silently lost: a `MEDIA:` reference the parser refuses is a
 * receipt failure with the reason (the reference redacted); the text rules stay as they are.
 */
import { describe, expect, it } from "vitest";
import { MediaError } from "../../src/errors/errors.js";
import { harness } from "./support/harness.js";

describe("refused MEDIA: references", () => {
  it("are receipt failures naming the reference and the reason; the text still goes", async () => {
    const { send, transport } = harness();
    const receipt = await send(
      {
        text: "Here you go\nMEDIA: ../../.env\nMEDIA: ~root/.ssh/id_rsa\nMEDIA: http://cdn.example.com/a.png?token=SECRET",
      },
      { to: "chat" },
    );
    expect(receipt.ok).toBe(false);
    expect(receipt.messages.map((message) => message.kind)).toEqual(["text"]);
    expect(
      transport.calls
        .map((_, index) => transport.op(index))
        .map((op) => (op.type === "text" ? op.text.plain : op.type)),
    ).toEqual(["Here you go\nMEDIA: http://cdn.example.com/a.png?token=SECRET"]);
    const errors = receipt.failures.map((failure) => failure.error);
    expect(errors.every((error) => error instanceof MediaError && error.reason === "blocked")).toBe(true);
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/"\.\.\/\.\.\/\.env" on a MEDIA: line was refused: it contains a '\.\.' segment/),
      expect.stringMatching(/"~root\/\.ssh\/id_rsa" .*another user's home directory/),
      expect.stringMatching(/"http:\/\/cdn\.example\.com\/a\.png\?…" .*only https: URLs/),
    ]);
    expect(JSON.stringify(receipt)).not.toContain("SECRET");
  });

  it("a reply without refused references has no failure", async () => {
    const { send } = harness();
    const receipt = await send({ text: "plain words\nMEDIA: is how we attach" }, { to: "chat" });
    expect(receipt).toMatchObject({ ok: true, failures: [] });
  });
});
