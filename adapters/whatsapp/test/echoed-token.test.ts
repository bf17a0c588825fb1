import { inspect } from "node:util";
import { type CredentialEcho, startCredentialEcho } from "@outbox/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createWhatsAppAdapter } from "../src/index.js";

const TOKEN = `EAAG${"q7Rk2Lm9Xz".repeat(8)}`;
let proxy: CredentialEcho | undefined;
afterEach(() => proxy?.close());

describe("WhatsApp: a proxy's error page that echoes the token", () => {
  it("no part of the token reaches the error message or the receipt, wherever the quote is cut", async () => {
    proxy = await startCredentialEcho();
    const adapter = createWhatsAppAdapter({
      token: TOKEN,
      phoneNumberId: "1234",
      graphApiUrl: `${proxy.url}/v23.0`,
      retry: { maxRetries: 0 },
    });
    const receipt = await adapter.send({ text: "hi" }, { to: "15550001111" });
    await adapter.close?.();
    expect(receipt.ok).toBe(false);
    const error = receipt.failures[0]?.error as Error;
    expect(error.message).toMatch(/HTTP 502 \(<html><body>x+ <redacted>/);
    const shown = `${inspect(receipt, { depth: 10 })}\n${error.message}`;
    for (const fragment of [TOKEN.slice(0, 8), TOKEN.slice(4, 14)]) expect(shown).not.toContain(fragment);
  });
});
