import { fixturePath, fixturesDir } from "@outbox/conformance";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { authed, createEmulatedChannel, type WebEmulatedChannel } from "./support.js";

let channel: WebEmulatedChannel;
beforeEach(async () => {
  channel = await createEmulatedChannel({ media: { localRoots: [fixturesDir] } });
});
afterEach(async () => {
  await channel.close();
});

const page = async () => (await (await authed(channel, "")).text()).split("<main")[1] ?? "";

describe("replies and threads", () => {
  it("a reply quotes the start of the message it references", async () => {
    const long = `${"word ".repeat(60)}end`;
    const first = await channel.adapter.send({ text: `**${long}**` }, channel.target);
    const id = first.messages[0]?.id as string;
    const reply = await channel.adapter.send({ text: "Answering that", replyToId: id }, channel.target);
    const html = await page();
    const quote = new RegExp(
      `data-id="${reply.messages[0]?.id}" data-kind="text" data-author="assistant" data-reply-to="${id}"><blockquote class="ob-reply-ref" data-reply-to="${id}">(word ){27}word…</blockquote>`,
    );
    expect(html).toMatch(quote);
    expect(channel.observe()[1]?.replyTo).toBe(id);
  });

  it("a reply to a message the conversation does not hold is refused and degrades to a plain message", async () => {
    const receipt = await channel.adapter.send({ text: "hi", replyToId: "nope" }, channel.target);
    expect(channel.observe()).toEqual([{ kind: "text", text: "hi" }]);
    expect(receipt.degraded.length + receipt.failures.length).toBeGreaterThan(0);
  });

  it("posts in a thread: data-thread on every message of the reply, media included", async () => {
    await channel.adapter.send(
      { text: "In the thread", mediaUrls: [fixturePath("png"), fixturePath("jpeg")] },
      { ...channel.target, thread: "t-42" },
    );
    const html = await page();
    const articles = html.match(/<article [^>]*data-author="assistant"[^>]*>/g) ?? [];
    expect(articles.length).toBeGreaterThan(0);
    for (const article of articles) expect(article).toContain('data-thread="t-42"');
    expect(channel.observe().every((message) => message.thread === "t-42")).toBe(true);
  });

  it("albums are galleries; voice notes are audio players with their duration", async () => {
    await channel.adapter.send({ mediaUrls: [fixturePath("png"), fixturePath("jpeg")] }, channel.target);
    await channel.adapter.send({ mediaUrl: fixturePath("ogg"), audioAsVoice: true }, channel.target);
    const html = await page();
    expect(html).toMatch(
      /data-kind="album"[^>]*><div class="ob-gallery"><figure class="ob-media" data-kind="image" data-name="image.png" data-mime="image\/png" data-sha256="[0-9a-f]{64}" data-bytes="\d+"><img src="media\/[0-9a-f]{64}"/,
    );
    expect(html).toMatch(
      /data-kind="voice"[^>]*><figure class="ob-media" data-kind="voice" data-name="voice.ogg" data-mime="audio\/ogg" data-sha256="[0-9a-f]{64}" data-bytes="\d+" data-duration-ms="\d+"><audio controls/,
    );
    expect(channel.observe().map((message) => message.kind)).toEqual(["album", "voice"]);
  });
});
