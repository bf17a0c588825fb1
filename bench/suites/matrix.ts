/**
 * The Matrix adapter against bare undici requests doing the same (the client it is built on),
 * on the same emulator (in another process, limits off), client CPU (this process) and wall
 * time per reply, interleaved rounds: a formatted Markdown text of about 350 characters
 * against a hand-written equivalent `m.text` event with `formatted_body`
 * (`PUT …/send/m.room.message/{txnId}`), and that text with a 1 MB file (upload, then an
 * `m.file` event with the caption). The adapter's clock skips its sleeps, so pacing does not
 * count. Also HTTP calls per payload.
 * Goals (client CPU): text ≤ 1.10×, text + file ≤ 1.05×. Gated: every ratio.
 */
import { randomFillSync } from "node:crypto";
import { createMatrixAdapter } from "@outbox/matrix";
import { DEFAULT_ROOM } from "@outbox/matrix/testing";
import { skippingClock, textAndMedia } from "../support/adapter-bench.js";
import { startEmulatorProcess } from "../support/emulator-child.js";
import type { Suite } from "../support/metrics.js";
import { Agent, requestApi } from "../support/undici.js";

const MARKDOWN = "Here is **bold**, _italic_, `code` and a [link](https://example.com/x). "
  .repeat(5)
  .trimEnd();
const BODY = "Here is bold, italic, code and a link (https://example.com/x). ".repeat(5).trimEnd();
const HTML = `<p>${'Here is <strong>bold</strong>, <em>italic</em>, <code>code</code> and a <a href="https://example.com/x">link</a>. '
  .repeat(5)
  .trimEnd()}</p>`;
const HTML_FORMAT = "org.matrix.custom.html";

/** The matrix suite. */
export const matrixSuite: Suite = {
  name: "matrix",
  async run(context) {
    const emulator = await startEmulatorProcess(false, "matrix");
    const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
    const adapter = createMatrixAdapter({
      homeserver: emulator.apiRoot,
      accessToken: emulator.token,
      clock: skippingClock(),
    });
    try {
      const origin = new URL(emulator.apiRoot).origin;
      const authorization = `Bearer ${emulator.token}`;
      const call = async <T>(method: "PUT" | "POST", path: string, type: string, body: string | Buffer) => {
        const res = await requestApi.call(dispatcher, {
          origin,
          path,
          method,
          headers: { authorization, "content-type": type, "content-length": String(Buffer.byteLength(body)) },
          body,
        });
        const answer = (await res.body.json()) as T;
        if (res.statusCode !== 200) throw new Error(`bare ${method} failed: HTTP ${res.statusCode}`);
        return answer;
      };
      const room = encodeURIComponent(DEFAULT_ROOM);
      let txn = 0;
      const send = (content: Record<string, unknown>) =>
        call<{ event_id: string }>(
          "PUT",
          `/_matrix/client/v3/rooms/${room}/send/m.room.message/bare.${++txn}`,
          "application/json",
          JSON.stringify(content),
        );
      const target = { to: DEFAULT_ROOM };
      const bytes = randomFillSync(Buffer.alloc(context.quick ? 64 * 1024 : 1024 * 1024));
      bytes.write("%PDF-1.4\n", 0, "latin1");
      const file = { mimeType: "application/pdf", data: bytes, fileName: "noise.pdf" };
      const text = {
        adapter: () => adapter.send({ text: MARKDOWN }, target),
        bare: () => send({ msgtype: "m.text", body: BODY, format: HTML_FORMAT, formatted_body: HTML }),
      };
      const withFile = {
        name: "file",
        adapter: () => adapter.send({ text: "The **file**.", media: [file] }, target),
        bare: async () => {
          const { content_uri } = await call<{ content_uri: string }>(
            "POST",
            "/_matrix/media/v3/upload?filename=noise.pdf",
            "application/pdf",
            bytes,
          );
          return send({
            msgtype: "m.file",
            body: "The file.",
            format: HTML_FORMAT,
            formatted_body: "<p>The <strong>file</strong>.</p>",
            filename: "noise.pdf",
            url: content_uri,
            info: { mimetype: "application/pdf", size: bytes.length },
          });
        },
      };
      return await textAndMedia("matrix", "bare undici requests", emulator, text, withFile, context);
    } finally {
      await adapter.close?.();
      await dispatcher.close();
      emulator.close();
    }
  },
};
