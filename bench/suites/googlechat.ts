/**
 * The Google Chat adapter against bare undici requests doing the same, on the same emulator
 * (in another process, limits off), client CPU (this process) and wall time per reply,
 * interleaved rounds: a formatted Markdown text of about 350 characters against
 * hand-written equivalent Google Chat markup (`POST /v1/{space}/messages`), and a 256 KB PNG
 * put on a media host on 127.0.0.1 and shown in a card's image widget (the bare side puts
 * the bytes it holds on the same host and posts the card; the emulator fetches either). Both
 * sides sign one JWT and fetch the token once. The adapter's clock skips its sleeps, so
 * pacing does not count. Also HTTP calls per payload. Goals (client CPU): text ≤ 1.10×,
 * image ≤ 1.05×. Gated: every ratio.
 */
import { sign } from "node:crypto";
import { startEmulatedMediaHost } from "@outbox/core/testing";
import { createGoogleChatAdapter } from "@outbox/googlechat";
import { skippingClock, textAndMedia } from "../support/adapter-bench.js";
import { GOOGLECHAT_SPACE, startEmulatorProcess } from "../support/emulator-child.js";
import type { Suite } from "../support/metrics.js";
import { Agent, requestApi } from "../support/undici.js";
import { noisePng } from "./png.js";

const MARKDOWN = "Here is **bold**, _italic_, `code` and a [link](https://example.com/x). "
  .repeat(5)
  .trimEnd();
const MARKUP = "Here is *bold*, _italic_, `code` and a <https://example.com/x|link>. ".repeat(5).trimEnd();

/** The googlechat suite. */
export const googlechatSuite: Suite = {
  name: "googlechat",
  async run(context) {
    const emulator = await startEmulatorProcess(false, "googlechat");
    const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
    const hosted = await startEmulatedMediaHost();
    try {
      // The emulator's service account key travels as the "token".
      const credentials = JSON.parse(emulator.token) as Record<string, string>;
      const api = new URL(emulator.apiRoot);
      const authorization = `Bearer ${await bareToken(dispatcher, credentials)}`;
      const post = async (message: Record<string, unknown>) => {
        const res = await requestApi.call(dispatcher, {
          origin: api.origin,
          path: `/v1/${GOOGLECHAT_SPACE}/messages`,
          method: "POST",
          headers: { authorization, "content-type": "application/json; charset=utf-8" },
          body: JSON.stringify(message),
        });
        const answer = (await res.body.json()) as { name?: string };
        if (res.statusCode !== 200) throw new Error(`bare send failed: HTTP ${res.statusCode}`);
        return answer;
      };
      const adapter = createGoogleChatAdapter({
        credentials: emulator.token,
        apiUrl: emulator.apiRoot,
        media: { host: hosted.host },
        clock: skippingClock(),
      });
      const target = { to: GOOGLECHAT_SPACE };
      const bytes = noisePng(context.quick ? 128 : 256);
      const image = { mimeType: "image/png", data: bytes, fileName: "noise.png" };
      const text = {
        adapter: () => adapter.send({ text: MARKDOWN }, target),
        bare: () => post({ text: MARKUP }),
      };
      const withImage = {
        name: "image",
        adapter: () => adapter.send({ media: [image] }, target),
        bare: async () => {
          const { url } = await hosted.host.put({
            mimeType: "image/png",
            fileName: "noise.png",
            size: bytes.length,
            open: async function* () {
              yield bytes;
            },
          });
          const widgets = [{ image: { imageUrl: url, altText: "noise.png" } }];
          return post({ cardsV2: [{ cardId: "image", card: { sections: [{ widgets }] } }] });
        },
      };
      const metrics = await textAndMedia(
        "googlechat",
        "bare undici requests",
        emulator,
        text,
        withImage,
        context,
      );
      await adapter.close?.();
      return metrics;
    } finally {
      await dispatcher.close();
      await hosted.close();
      emulator.close();
    }
  },
};

/** The token the bare side uses: one JWT signed by hand and exchanged once. */
async function bareToken(
  dispatcher: InstanceType<typeof Agent>,
  key: Record<string, string>,
): Promise<string> {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const iat = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: "RS256", typ: "JWT" })}.${part({
    iss: key.client_email,
    scope: "https://www.googleapis.com/auth/chat.bot",
    aud: key.token_uri,
    iat,
    exp: iat + 3600,
  })}`;
  const assertion = `${unsigned}.${sign("sha256", Buffer.from(unsigned), key.private_key ?? "").toString("base64url")}`;
  const url = new URL(key.token_uri ?? "");
  const res = await requestApi.call(dispatcher, {
    origin: url.origin,
    path: url.pathname,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion,
    }).toString(),
  });
  return ((await res.body.json()) as { access_token: string }).access_token;
}
