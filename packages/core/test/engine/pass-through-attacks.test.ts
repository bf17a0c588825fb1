/**
 * The pass-through attack battery: with `media.passThrough` on, a URL reaches the platform
 * only after the loader checked it, and what the receipt says of it is what its bytes are.
 * A redirect to a private address is never handed over; a server that lies about the type
 * or the size gets the type of its bytes and the size it really has; a link (its own, or a
 * media host's) never shows its query in a failure, a degradation or a log line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MediaOperation, TextOperation } from "../../src/adapter/types.js";
import { PlatformError } from "../../src/errors/errors.js";
import type { MediaHost } from "../../src/media/host/types.js";
import { type Harness as MediaHarness, redirect, serve, startHarness } from "../media/helpers/harness.js";
import { png } from "../media/helpers/samples.js";
import { harness } from "./support/harness.js";

let media: MediaHarness;
beforeAll(async () => {
  media = await startHarness({ "intranet.example.com": ["10.1.2.3"] });
});
afterAll(() => media.close());

const to = { to: "chat1" };
/** Uploads up to 50 000 bytes, URLs fetched up to 60 000 (images 40 000), hosted links up to 200 000. */
const capabilities = {
  media: {
    kinds: ["image", "document"] as Array<"image" | "document">,
    maxBytes: { default: 50_000 },
    byUrl: { default: 60_000, image: 40_000 },
  },
};
const passing = (extra = {}) =>
  harness(capabilities, { media: media.policy({ passThrough: true, ...extra }) });

describe("pass-through: redirects", () => {
  it.each([
    ["a private literal", "https://10.0.0.1/chart.png"],
    ["a name resolving to a private address", "https://intranet.example.com/chart.png"],
    ["the metadata service", "https://169.254.169.254/latest/meta-data/"],
    ["http:", "http://media.outbox.test/image.png"],
  ])("never hands over a URL that redirects to %s", async (_name, location) => {
    const path = `/hop-${encodeURIComponent(location)}`;
    media.route(path, redirect(location));
    const { send, transport } = passing();
    const receipt = await send({ text: "chart", mediaUrls: [`https://media.outbox.test${path}`] }, to);
    expect(receipt.failures.map((failure) => failure.error.code)).toEqual(["media_blocked"]);
    expect(transport.calls.map((call) => call.op.type)).toEqual(["text"]);
  });

  it("hands over the URL that was checked, not where a public redirect led", async () => {
    media.route("/moved.png", redirect("https://media.outbox.test/image.png"));
    const { send, transport } = passing();
    await send({ text: "", mediaUrls: ["https://media.outbox.test/moved.png"] }, to);
    expect((transport.op(0) as MediaOperation).url).toBe("https://media.outbox.test/moved.png");
  });
});

describe("pass-through: type lies", () => {
  it("an HTML page served as image/png goes as the document its bytes are, typed by them", async () => {
    media.route("/lie.png", serve(Buffer.from("<html><script>alert(1)</script></html>"), "image/png"));
    const { send, transport } = passing();
    const receipt = await send({ text: "", mediaUrls: ["https://media.outbox.test/lie.png"] }, to);
    const op = transport.op(0) as MediaOperation;
    expect(op.kind).toBe("document");
    expect(op.media.mimeType).not.toBe("image/png");
    expect(receipt.messages[0]).toMatchObject({ kind: "document", media: [{ source: 0, via: "url" }] });
  });

  it("a PNG served as application/pdf is an image, within the image URL limit", async () => {
    media.route("/really.pdf", serve(png(), "application/pdf"));
    const { send, transport } = passing();
    await send({ text: "", mediaUrls: ["https://media.outbox.test/really.pdf"] }, to);
    expect(transport.op(0)).toMatchObject({ type: "media", kind: "image" });
  });
});

describe("pass-through: size lies", () => {
  it("a body without content-length is counted: over the URL limit it is never handed over as media", async () => {
    const body = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(70_000)]);
    media.route("/chunked.pdf", serve(body, "application/pdf", true));
    const { send, transport } = passing();
    const receipt = await send({ text: "", mediaUrls: ["https://media.outbox.test/chunked.pdf"] }, to);
    expect(transport.calls.filter((call) => call.op.type === "media")).toHaveLength(0);
    // Too large for either way: its own link goes in the text, and the receipt says so.
    expect(receipt.messages[0]?.media).toEqual([{ source: 0, via: "link" }]);
    expect(receipt.degraded).toEqual([expect.objectContaining({ from: "media", to: "link" })]);
  });

  it("a body without content-length within the URL limit is handed over with its counted size", async () => {
    const body = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(55_000)]);
    media.route("/chunked-ok.pdf", serve(body, "application/pdf", true));
    const { send, transport } = passing();
    await send({ text: "", mediaUrls: ["https://media.outbox.test/chunked-ok.pdf"] }, to);
    const op = transport.op(0) as MediaOperation;
    expect(op.media.size).toBe(55_009);
    expect(op.url).toBe("https://media.outbox.test/chunked-ok.pdf");
  });

  it("an image whose size is over the image URL limit is not handed over as an image", async () => {
    const big = Buffer.concat([png(), Buffer.alloc(45_000)]);
    media.route("/big.png", serve(big, "image/png"));
    const { send, transport } = passing();
    await send({ text: "", mediaUrls: ["https://media.outbox.test/big.png"] }, to);
    const op = transport.op(0) as MediaOperation;
    expect(op.kind === "image" && op.url !== undefined).toBe(false);
  });

  it("a content-length over every limit is refused before the body is read", async () => {
    media.route("/huge.pdf", (_request, response) => {
      response.writeHead(200, { "content-type": "application/pdf", "content-length": 10_000_000 });
      response.write("%PDF-1.4\n");
    });
    const { send, transport } = passing();
    const receipt = await send({ text: "", mediaUrls: ["https://media.outbox.test/huge.pdf"] }, to);
    expect(transport.calls.filter((call) => call.op.type === "media")).toHaveLength(0);
    expect(receipt.messages.map((message) => message.kind)).not.toContain("document");
  });
});

describe("pass-through: links in logs", () => {
  it("a URL with a token in its query shows none of it in a failure", async () => {
    const { send, transport } = passing();
    transport.behave((op) => {
      if (op.type === "media")
        throw new PlatformError(`could not fetch ${op.url}`, {
          method: "sendDocument",
          status: 400,
          description: `failed to get ${op.url}`,
        });
      return undefined;
    });
    const receipt = await send(
      { text: "", mediaUrls: ["https://media.outbox.test/image.png?token=hunter2-secret"] },
      to,
    );
    expect(JSON.stringify(receipt)).not.toContain("hunter2-secret");
    expect(receipt.failures).toHaveLength(1);
  });

  it("a media host's signed link shows no signature in a failure, its content or a degradation", async () => {
    const host: MediaHost = {
      put: async () => ({
        key: "k",
        url: "https://cdn.example.com/k?exp=1&sig=SIGNATURE-abcdef",
        expiresAt: 1,
      }),
      remove: async () => {},
    };
    const { send, transport } = harness(
      { media: { ...capabilities.media, maxBytes: { default: 10 }, hostedLinks: { default: 100_000 } } },
      { media: media.policy({ host }) },
    );
    transport.behave((op) => {
      const shown = op.type === "text" ? (op as TextOperation).text.text : (op as MediaOperation).url;
      throw new PlatformError(`refused ${shown}`, {
        method: "send",
        status: 400,
        description: `bad ${shown}`,
      });
    });
    const receipt = await send({ text: "", mediaUrls: ["https://media.outbox.test/image.png"] }, to);
    expect(receipt.failures).toHaveLength(1);
    expect(JSON.stringify(receipt)).not.toContain("SIGNATURE");
    expect(String(receipt.failures[0]?.error.message)).not.toContain("SIGNATURE");
  });
});
