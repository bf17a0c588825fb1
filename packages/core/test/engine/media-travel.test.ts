import { describe, expect, it } from "vitest";
import type { MediaOperation, TextOperation } from "../../src/adapter/types.js";
import type { HostedMedia, MediaHost, MediaToHost } from "../../src/media/host/types.js";
import { harness } from "./support/harness.js";
import { attach } from "./support/media-bytes.js";

const to = { to: "chat1" };
const EXPIRES = Date.UTC(2030, 0, 1);

/** A host that keeps what it is given in memory and answers signed-looking links. */
function memoryHost(): MediaHost & { puts: MediaToHost[] } {
  const puts: MediaToHost[] = [];
  return {
    puts,
    async put(media): Promise<HostedMedia> {
      for await (const _ of media.open() as AsyncIterable<Uint8Array>);
      puts.push(media);
      const key = `k${puts.length}`;
      return {
        key,
        url: `https://media.example.com/${key}?exp=1&sig=secretsig${puts.length}`,
        expiresAt: EXPIRES,
      };
    },
    async remove() {},
  };
}

/** Uploads up to 100 bytes, URLs fetched up to 10 000, hosted links up to 100 000. */
const media = {
  kinds: ["image", "document"] as const,
  maxBytes: { default: 100 },
  byUrl: { default: 10_000 },
  hostedLinks: { default: 100_000 },
};

describe("media that travels through a host", () => {
  it("puts an item the platform cannot take as bytes on the host and hands the transport its link", async () => {
    const host = memoryHost();
    const { send, transport } = harness(
      { media: { ...media, kinds: [...media.kinds] } },
      { media: { host } },
    );
    const receipt = await send({ text: "", media: [attach.pdf(), attach.png(40, 40, 2000)] }, to);
    expect(receipt.ok).toBe(true);
    expect(host.puts.map((item) => item.fileName)).toEqual(["a.png"]);
    const ops = transport.calls.map((call) => call.op as MediaOperation);
    expect(ops[0]?.url).toBeUndefined();
    expect(ops[1]?.url).toBe("https://media.example.com/k1?exp=1&sig=secretsig1");
    expect(receipt.messages[0]?.media).toBeUndefined();
    expect(receipt.messages[1]?.media).toEqual([{ source: 1, via: "hosted", expiresAt: EXPIRES }]);
  });

  it("sends a hosted link in the text for an item over every platform limit", async () => {
    const host = memoryHost();
    const { send, transport } = harness(
      { media: { ...media, kinds: [...media.kinds] } },
      { media: { host } },
    );
    const receipt = await send({ text: "", media: [attach.png(40, 40, 20_000)] }, to);
    const op = transport.calls[0]?.op as TextOperation;
    expect(op.type).toBe("text");
    expect(op.text.text).toContain("https://media.example.com/k1?exp=1&amp;sig=secretsig1");
    expect(receipt.messages).toEqual([
      { id: "m1", kind: "text", part: 0, media: [{ source: 0, via: "hosted-link", expiresAt: EXPIRES }] },
    ]);
    expect(receipt.degraded).toEqual([expect.objectContaining({ from: "image", to: "link" })]);
  });

  it("reports an item that needs a host, without one, as a failure naming media.host", async () => {
    const { send, transport } = harness({ media: { ...media, kinds: [...media.kinds] } });
    const receipt = await send({ text: "hi", media: [attach.png(40, 40, 2000)] }, to);
    expect(receipt.ok).toBe(false);
    expect(receipt.failures[0]?.action).toContain("media.host");
    expect(receipt.messages.map((m) => m.kind)).toEqual(["text"]);
    expect(transport.calls).toHaveLength(1);
  });

  it("reports a host that fails as a media failure, sending nothing for the item", async () => {
    const host: MediaHost = {
      put: async () => {
        throw new Error("disk full");
      },
      remove: async () => {},
    };
    const { send, transport } = harness(
      { media: { ...media, kinds: [...media.kinds] } },
      { media: { host } },
    );
    const receipt = await send({ text: "", media: [attach.png(40, 40, 2000)] }, to);
    expect(receipt.failures[0]?.error.code).toBe("media_fetch_failed");
    expect(receipt.failures[0]?.error.message).toContain("disk full");
    expect(transport.calls).toHaveLength(0);
  });

  it("marks an item the transport uploaded instead of its URL as uploaded", async () => {
    const host = memoryHost();
    const { send, transport } = harness(
      { media: { ...media, kinds: [...media.kinds] } },
      { media: { host } },
    );
    transport.behave(() => ({ id: "x1", uploadedInstead: [0] }));
    const receipt = await send({ text: "", media: [attach.png(40, 40, 2000)] }, to);
    expect(receipt.messages).toEqual([{ id: "x1", kind: "image", part: 0 }]);
  });
});
