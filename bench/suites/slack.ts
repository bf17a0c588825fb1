/**
 * The Slack adapter against bare `WebClient` calls doing the same, on the same emulator (in
 * another process, rate limits off), client CPU (this process) and wall time per reply,
 * interleaved rounds: a formatted Markdown text of about 350 characters against
 * hand-written equivalent mrkdwn, and that text with a 1 MB file (`filesUploadV2` with
 * `initial_comment`). The adapter's clock skips its sleeps, so pacing does not count. Also
 * HTTP calls per payload. Goals (client CPU): text ≤ 1.10×, text + file ≤ 1.05×. Gated:
 * every ratio. The 50 MB upload's RSS is in the rss suite.
 */
import { randomFillSync } from "node:crypto";
import { createSlackAdapter } from "@outbox/slack";
import { WebClient } from "@slack/web-api";
import { skippingClock, textAndFile } from "../support/adapter-bench.js";
import { SLACK_CHANNEL, startEmulatorProcess } from "../support/emulator-child.js";
import type { Suite } from "../support/metrics.js";

const MARKDOWN = "Here is **bold**, _italic_, `code` and a [link](https://example.com/x). "
  .repeat(5)
  .trimEnd();
const MRKDWN = "Here is *bold*, _italic_, `code` and a <https://example.com/x|link>. ".repeat(5).trimEnd();

/** The slack suite. */
export const slackSuite: Suite = {
  name: "slack",
  async run(context) {
    const emulator = await startEmulatorProcess(false, "slack");
    try {
      const slackApiUrl = emulator.apiRoot;
      const web = new WebClient(emulator.token, { slackApiUrl, retryConfig: { retries: 0 } });
      const adapter = createSlackAdapter({ token: emulator.token, slackApiUrl, clock: skippingClock() });
      const target = { to: SLACK_CHANNEL };
      const bytes = randomFillSync(Buffer.alloc(context.quick ? 64 * 1024 : 1024 * 1024));
      const file = { mimeType: "application/octet-stream", data: bytes, fileName: "noise.bin" };
      const text = {
        adapter: () => adapter.send({ text: MARKDOWN }, target),
        bare: () =>
          web.chat.postMessage({
            channel: SLACK_CHANNEL,
            text: MRKDWN,
            mrkdwn: true,
            unfurl_links: false,
            unfurl_media: false,
          }),
      };
      const withFile = {
        adapter: () => adapter.send({ text: "The **file**.", media: [file] }, target),
        bare: () =>
          web.filesUploadV2({
            channel_id: SLACK_CHANNEL,
            file: bytes,
            filename: "noise.bin",
            initial_comment: "The *file*.",
          }),
      };
      const metrics = await textAndFile(
        "slack",
        "bare WebClient",
        { text, file: withFile },
        emulator,
        context,
      );
      return metrics;
    } finally {
      emulator.close();
    }
  },
};
