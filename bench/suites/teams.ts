/**
 * The Teams adapter against bare undici requests doing the same, on the same emulator (in
 * another process, limits off), client CPU (this process) and wall time per reply,
 * interleaved rounds: a formatted Markdown text of about 350 characters against
 * hand-written equivalent Teams HTML (`POST /v3/conversations/{id}/activities`), and a
 * 256 KB PNG inline as a `data:` URI (under Teams' 1 MB inline bound; the bare side encodes
 * the bytes it holds the same way). Both
 * sides fetch the token once and reuse it. The adapter's clock skips its sleeps, so pacing
 * does not count. Also HTTP calls per payload. Goals (client CPU): text ≤ 1.10×, image
 * ≤ 1.05×. Gated: every ratio.
 */
import { createTeamsAdapter } from "@outbox/teams";
import { EMULATOR_IDENTITY } from "@outbox/teams/testing";
import { skippingClock, textAndMedia } from "../support/adapter-bench.js";
import { startEmulatorProcess, TEAMS_TO } from "../support/emulator-child.js";
import type { Suite } from "../support/metrics.js";
import { Agent, requestApi } from "../support/undici.js";
import { noisePng } from "./png.js";

const MARKDOWN = "Here is **bold**, _italic_, `code` and a [link](https://example.com/x). "
  .repeat(5)
  .trimEnd();
const HTML = `<p>${'Here is <strong>bold</strong>, <em>italic</em>, <code>code</code> and a <a href="https://example.com/x">link</a>. '
  .repeat(5)
  .trimEnd()}</p>`;

/** The teams suite. */
export const teamsSuite: Suite = {
  name: "teams",
  async run(context) {
    const emulator = await startEmulatorProcess(false, "teams");
    const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
    try {
      const serviceUrl = emulator.apiRoot;
      const tokenUrl = new URL(emulator.token);
      const connector = new URL(serviceUrl);
      const tokenAnswer = await requestApi.call(dispatcher, {
        origin: tokenUrl.origin,
        path: tokenUrl.pathname,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: EMULATOR_IDENTITY.clientId,
          client_secret: EMULATOR_IDENTITY.clientSecret,
          scope: "https://api.botframework.com/.default",
        }).toString(),
      });
      const { access_token: token } = (await tokenAnswer.body.json()) as { access_token: string };
      const authorization = `Bearer ${token}`;
      const post = async (activity: Record<string, unknown>) => {
        const res = await requestApi.call(dispatcher, {
          origin: connector.origin,
          path: `${connector.pathname}v3/conversations/${encodeURIComponent(TEAMS_TO)}/activities`,
          method: "POST",
          headers: { authorization, "content-type": "application/json; charset=utf-8" },
          body: JSON.stringify(activity),
        });
        const answer = (await res.body.json()) as { id?: string };
        if (res.statusCode !== 201) throw new Error(`bare send failed: HTTP ${res.statusCode}`);
        return answer;
      };
      const adapter = createTeamsAdapter({
        ...EMULATOR_IDENTITY,
        tokenUrl: emulator.token,
        serviceUrl,
        clock: skippingClock(),
      });
      const target = { to: TEAMS_TO };
      // RGB noise does not compress: 3 × side² bytes, about 64 KB quick and 256 KB in full.
      const bytes = noisePng(context.quick ? 148 : 296);
      const image = { mimeType: "image/png", data: bytes, fileName: "noise.png" };
      const text = {
        adapter: () => adapter.send({ text: MARKDOWN }, target),
        bare: () => post({ type: "message", textFormat: "xml", text: HTML }),
      };
      const withImage = {
        name: "image",
        adapter: () => adapter.send({ media: [image] }, target),
        bare: () =>
          post({
            type: "message",
            attachments: [
              {
                contentType: "image/png",
                contentUrl: `data:image/png;base64,${bytes.toString("base64")}`,
                name: "noise.png",
              },
            ],
          }),
      };
      const metrics = await textAndMedia("teams", "bare undici requests", emulator, text, withImage, context);
      await adapter.close?.();
      return metrics;
    } finally {
      await dispatcher.close();
      emulator.close();
    }
  },
};
