/**
 * The Discord adapter against bare `@discordjs/rest` calls doing the same, on the same
 * emulator (in another process, buckets off), client CPU (this process) and wall time per
 * reply, interleaved rounds: a formatted Markdown text of about 350 characters against
 * hand-written equivalent Discord Markdown, and that text with a 1 MB PNG. Both sides use
 * undici 6 (the copy @discordjs/rest bundles) with no self-imposed 50/s limiter; the
 * adapter's clock skips its sleeps, so pacing does not count. Also HTTP calls per payload.
 * Goals (client CPU): text ≤ 1.10×, text + image ≤ 1.05×. Gated: every ratio.
 */
import { createRequire } from "node:module";
import { REST } from "@discordjs/rest";
import { createDiscordAdapter } from "@outbox/discord";
import { DEFAULT_CHANNEL } from "@outbox/discord/testing";
import { skippingClock, textAndFile } from "../support/adapter-bench.js";
import { startEmulatorProcess } from "../support/emulator-child.js";
import type { Suite } from "../support/metrics.js";
import { noisePng } from "./png.js";

/** undici 6's Agent (the copy @discordjs/rest and the adapter use), so both sides keep connections alike. */
const { Agent } = createRequire(new URL("../../adapters/discord/package.json", import.meta.url))(
  "undici",
) as {
  Agent: new () => { close(): Promise<void> };
};

const MARKDOWN = "Here is **bold**, _italic_, `code` and a [link](https://example.com/x). "
  .repeat(5)
  .trimEnd();
const RENDERED = "Here is **bold**, *italic*, `code` and a [link](https://example.com/x). "
  .repeat(5)
  .trimEnd();

/** The discord suite. */
export const discordSuite: Suite = {
  name: "discord",
  async run(context) {
    const emulator = await startEmulatorProcess(false, "discord");
    const agent = new Agent();
    const rest = new REST({
      api: emulator.apiRoot,
      retries: 0,
      offset: 0,
      agent: agent as never,
      globalRequestsPerSecond: Number.POSITIVE_INFINITY,
    }).setToken(emulator.token);
    const adapter = createDiscordAdapter({
      token: emulator.token,
      api: emulator.apiRoot,
      clock: skippingClock(),
    });
    try {
      const route = `/channels/${DEFAULT_CHANNEL}/messages` as const;
      const target = { to: DEFAULT_CHANNEL };
      const png = noisePng(context.quick ? 100 : 600);
      const mentions = { parse: [] };
      const text = {
        adapter: () => adapter.send({ text: MARKDOWN }, target),
        bare: () => rest.post(route, { body: { content: RENDERED, allowed_mentions: mentions } }),
      };
      const image = {
        adapter: () =>
          adapter.send(
            { text: MARKDOWN, media: [{ mimeType: "image/png", data: png, fileName: "noise.png" }] },
            target,
          ),
        bare: () =>
          rest.post(route, {
            body: {
              content: RENDERED,
              attachments: [{ id: 0, filename: "noise.png" }],
              allowed_mentions: mentions,
            },
            files: [{ name: "noise.png", data: png, contentType: "image/png" }],
          }),
      };
      const metrics = await textAndFile(
        "discord",
        "bare REST",
        { text, file: image, fileName: "image" },
        emulator,
        context,
      );
      return metrics;
    } finally {
      await adapter.close?.();
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
      await agent.close();
      emulator.close();
    }
  },
};
