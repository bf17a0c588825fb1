/**
 * The Telegram adapter against bare grammY on the same emulator (in another process, flood
 * limits off), client CPU (this process) and wall time per reply, interleaved rounds:
 * Markdown text of 200 characters, 3 kB and 11 kB (split in 3) against hand-written
 * equivalent HTML; a photo; a 3-photo album. The adapter's clock skips its sleeps, so pacing
 * does not count. Also HTTP calls per payload. Goals (client CPU): text ≤ 1.3× / 1.8× / 2×,
 * media ≤ 1.05×. Gated: every ratio.
 */
import { createTelegramAdapter } from "@outbox/telegram";
import { Api, InputFile, InputMediaBuilder } from "grammy";
import { adapterOverBare, httpCalls, type Pair, skippingClock } from "../support/adapter-bench.js";
import { startEmulatorProcess } from "../support/emulator-child.js";
import type { Suite } from "../support/metrics.js";
import { noisePng } from "./png.js";
import { markdownReply, shortReply } from "./texts.js";

const CHAT = "42";

/** The telegram suite. */
export const telegramSuite: Suite = {
  name: "telegram",
  async run(context) {
    const { quick } = context;
    const emulator = await startEmulatorProcess(false);
    try {
      const api = new Api(emulator.token, { apiRoot: emulator.apiRoot });
      const adapter = createTelegramAdapter({
        token: emulator.token,
        apiRoot: emulator.apiRoot,
        clock: skippingClock(),
      });
      const mid = markdownReply(3_000);
      const big = markdownReply(11_000);
      const png = noisePng(quick ? 100 : 600);
      // An album of three different photos of one size (the same bytes three times are one
      // photo: core sends repeated media once).
      const names = ["a.png", "b.png", "c.png"];
      const pngs = new Map(names.map((name, i) => [name, i === 0 ? png : noisePng(quick ? 100 : 600)]));
      const photo = (name: string) => ({
        mimeType: "image/png",
        data: pngs.get(name) ?? png,
        fileName: name,
      });
      const sendAll = async (messages: string[]) => {
        for (const html of messages) await api.sendMessage(CHAT, html, { parse_mode: "HTML" });
      };
      const pairs: Pair[] = [
        {
          name: "text200",
          goal: 1.3,
          weight: 4,
          bare: () => api.sendMessage(CHAT, shortReply.html, { parse_mode: "HTML" }),
          adapter: () => adapter.send({ text: shortReply.markdown }, { to: CHAT }),
        },
        {
          name: "text3k",
          goal: 1.8,
          weight: 2,
          bare: () => sendAll(mid.html),
          adapter: () => adapter.send({ text: mid.markdown }, { to: CHAT }),
        },
        {
          name: "text11k",
          goal: 2,
          weight: 1,
          bare: () => sendAll(big.html),
          adapter: () => adapter.send({ text: big.markdown }, { to: CHAT }),
        },
        {
          name: "photo",
          goal: 1.05,
          weight: 1,
          bare: () => api.sendPhoto(CHAT, new InputFile(png, "noise.png")),
          adapter: () => adapter.send({ text: "", media: [photo("noise.png")] }, { to: CHAT }),
        },
        {
          name: "album",
          goal: 1.05,
          weight: 1,
          bare: () =>
            api.sendMediaGroup(
              CHAT,
              names.map((n) => InputMediaBuilder.photo(new InputFile(pngs.get(n) ?? png, n))),
            ),
          adapter: () => adapter.send({ text: "", media: names.map(photo) }, { to: CHAT }),
        },
      ];
      const metrics = await adapterOverBare("telegram", "bare grammY", pairs, context);
      const send = (payload: Parameters<typeof adapter.send>[0]) => () => adapter.send(payload, { to: CHAT });
      metrics.push(
        ...(await httpCalls("telegram", emulator, {
          text: { adapter: send({ text: shortReply.markdown }) },
          text11k: { adapter: send({ text: big.markdown }) },
          photo: { adapter: send({ text: "", media: [photo("a.png")] }) },
          captionedPhoto: { adapter: send({ text: shortReply.markdown, media: [photo("a.png")] }) },
          album: { adapter: send({ text: "An album", media: names.map(photo) }) },
          longCaptionPhoto: { adapter: send({ text: mid.markdown, media: [photo("a.png")] }) },
        })),
      );
      return metrics;
    } finally {
      emulator.close();
    }
  },
};
