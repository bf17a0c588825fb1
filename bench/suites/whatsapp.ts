/**
 * The WhatsApp adapter against bare undici requests doing the same, on the same emulator (in
 * another process, limits off), client CPU (this process) and wall time per reply,
 * interleaved rounds: a formatted Markdown text of about 350 characters against
 * hand-written equivalent WhatsApp markup (`POST /messages`), and that text with a 1 MB PDF
 * (the bare side uploads it as a multipart body built in memory, then sends the document by id). The
 * adapter's clock skips its sleeps, so pacing does not count. Also HTTP calls per payload.
 * Goals (client CPU): text ≤ 1.10×, text + file ≤ 1.05×. Gated: every ratio.
 */
import { randomFillSync } from "node:crypto";
import { createWhatsAppAdapter } from "@outbox/whatsapp";
import type { Dispatcher } from "undici";
import { skippingClock, textAndMedia } from "../support/adapter-bench.js";
import { startEmulatorProcess, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_TO } from "../support/emulator-child.js";
import type { Suite } from "../support/metrics.js";
import { Agent, requestApi } from "../support/undici.js";

const MARKDOWN = "Here is **bold**, _italic_, `code` and a [link](https://example.com/x). "
  .repeat(5)
  .trimEnd();
const MARKUP = "Here is *bold*, _italic_, `code` and a link (https://example.com/x). ".repeat(5).trimEnd();

/** The whatsapp suite. */
export const whatsappSuite: Suite = {
  name: "whatsapp",
  async run(context) {
    const emulator = await startEmulatorProcess(false, "whatsapp");
    const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
    try {
      const graphApiUrl = emulator.apiRoot;
      const origin = new URL(graphApiUrl).origin;
      const path = `/v25.0/${WHATSAPP_PHONE_NUMBER_ID}`;
      const request = (
        edge: string,
        headers: Record<string, string>,
        body: Dispatcher.RequestOptions["body"],
      ) => requestApi.call(dispatcher, { origin, path: `${path}/${edge}`, method: "POST", headers, body });
      const authorization = `Bearer ${emulator.token}`;
      const adapter = createWhatsAppAdapter({
        token: emulator.token,
        phoneNumberId: WHATSAPP_PHONE_NUMBER_ID,
        graphApiUrl,
        clock: skippingClock(),
      });
      const target = { to: WHATSAPP_TO };
      const bytes = randomFillSync(Buffer.alloc(context.quick ? 64 * 1024 : 1024 * 1024));
      bytes.write("%PDF-1.4\n", 0, "latin1");
      const file = { mimeType: "application/pdf", data: bytes, fileName: "noise.pdf" };
      const post = async (object: Record<string, unknown>) => {
        const res = await request(
          "messages",
          { authorization, "content-type": "application/json" },
          JSON.stringify({
            messaging_product: "whatsapp",
            recipient_type: "individual",
            to: WHATSAPP_TO,
            ...object,
          }),
        );
        const answer = (await res.body.json()) as { messages?: Array<{ id: string }> };
        if (res.statusCode !== 200) throw new Error(`bare send failed: HTTP ${res.statusCode}`);
        return answer;
      };
      const text = {
        adapter: () => adapter.send({ text: MARKDOWN }, target),
        bare: () => post({ type: "text", text: { body: MARKUP, preview_url: false } }),
      };
      const withFile = {
        adapter: () => adapter.send({ text: "The **file**.", media: [file] }, target),
        bare: async () => {
          const boundary = "bare-boundary";
          const form = Buffer.concat([
            Buffer.from(
              `--${boundary}\r\ncontent-disposition: form-data; name="messaging_product"\r\n\r\nwhatsapp\r\n` +
                `--${boundary}\r\ncontent-disposition: form-data; name="type"\r\n\r\napplication/pdf\r\n` +
                `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="noise.pdf"\r\ncontent-type: application/pdf\r\n\r\n`,
            ),
            bytes,
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]);
          const res = await request(
            "media",
            { authorization, "content-type": `multipart/form-data; boundary=${boundary}` },
            form,
          );
          const { id } = (await res.body.json()) as { id: string };
          return post({ type: "document", document: { id, caption: "The *file*.", filename: "noise.pdf" } });
        },
      };
      const metrics = await textAndMedia(
        "whatsapp",
        "bare undici requests",
        emulator,
        text,
        {
          name: "file",
          ...withFile,
        },
        context,
      );
      await adapter.close?.();
      return metrics;
    } finally {
      await dispatcher.close();
      emulator.close();
    }
  },
};
