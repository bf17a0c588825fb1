import { inspect } from "node:util";
import { type CredentialEcho, startCredentialEcho } from "@outbox/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createMatrixAdapter } from "../src/index.js";

const TOKEN = `syt_Ym90_${"q7Rk2Lm9Xz".repeat(6)}_1a2b3c`;
let proxy: CredentialEcho | undefined;
afterEach(() => proxy?.close());

describe("Matrix: a proxy's error page that echoes the token", () => {
  it("no part of the token reaches the error message or the receipt, wherever the quote is cut", async () => {
    proxy = await startCredentialEcho();
    const adapter = createMatrixAdapter({
      homeserver: proxy.url,
      accessToken: TOKEN,
      retry: { maxRetries: 0 },
    });
    const receipt = await adapter.send({ text: "hi" }, { to: "!room:example.org" });
    await adapter.close?.();
    expect(receipt.ok).toBe(false);
    const error = receipt.failures[0]?.error as Error;
    expect(error.message).toMatch(/<html><body>x+ <redacted>/);
    const shown = `${inspect(receipt, { depth: 10 })}\n${error.message}`;
    for (const fragment of [TOKEN.slice(0, 8), TOKEN.slice(9, 19)]) expect(shown).not.toContain(fragment);
  });
});
