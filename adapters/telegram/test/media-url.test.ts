/**
 * Telegram fetches https media itself: it must be handed the canonical URL the loader
 * checked, never the raw string (another parser may read `\@127.0.0.1` as userinfo).
 */
import { conformanceMedia, fixtureBytes } from "@outbox/conformance";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramAdapter } from "../src/index.js";
import { startTelegramEmulator, type TelegramEmulator } from "../src/testing/index.js";

let emulator: TelegramEmulator | undefined;
afterEach(() => emulator?.close());

describe("Telegram fetch-by-URL", () => {
  it("gets the canonical form of the URL that was checked", async () => {
    const media = await conformanceMedia();
    const fetched: string[] = [];
    emulator = await startTelegramEmulator({
      rateLimits: false,
      fetchUrl: async (url) => {
        fetched.push(url);
        return {
          status: 200,
          contentType: "image/png",
          body: (async function* () {
            yield fixtureBytes("png");
          })(),
        };
      },
    });
    const good = new URL(media.url("png"));
    const raw = `https://${good.host}\\@127.0.0.1/../image.png`;
    const adapter = createTelegramAdapter({
      token: emulator.token,
      apiRoot: emulator.apiRoot,
      media: { ...media.policy, passThrough: true },
    });
    const receipt = await adapter.send({ text: "", mediaUrls: [raw] }, { to: "42" });
    expect(receipt.ok).toBe(true);
    expect(fetched).toEqual([`https://${good.host}/image.png`]);
    expect(emulator.urlFetches).toEqual([`https://${good.host}/image.png`]);
  });
});
