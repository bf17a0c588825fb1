import { describe, expect, it } from "vitest";
import { PayloadError } from "../../src/errors/errors.js";
import { normalizePayload } from "../../src/parse/normalize-payload.js";
import type { MediaAttachment, ReplyPayloadInput } from "../../src/payload/types.js";

function issuesOf(input: unknown): Array<{ path: ReadonlyArray<string | number>; code: string }> {
  try {
    normalizePayload(input as ReplyPayloadInput);
  } catch (error) {
    expect(error).toBeInstanceOf(PayloadError);
    const payloadError = error as PayloadError;
    expect(payloadError.code).toBe("payload_invalid");
    return payloadError.issues.map(({ path, code }) => ({ path, code }));
  }
  throw new Error("expected a PayloadError");
}

describe("normalizePayload validation", () => {
  it.each<[string, unknown, Array<string | number>]>([
    ["text not a string", { text: 42 }, ["text"]],
    ["mediaUrls not strings", { mediaUrls: ["/a.png", 7] }, ["mediaUrls", 1]],
    ["media item without mimeType", { media: [{ filePath: "/a.png" }] }, ["media", 0, "mimeType"]],
    ["media item without bytes", { media: [{ mimeType: "image/png" }] }, ["media", 0]],
    [
      "too many mediaUrls",
      { mediaUrls: Array.from({ length: 101 }, (_, i) => `/m/${i}.png`) },
      ["mediaUrls"],
    ],
    ["text over 1 MB", { text: "é".repeat(600_000) }, ["text"]],
    ["unknown key (a typo)", { mediaURL: "/a.png" }, []],
    ["unknown key next to text", { text: "hi", mediaURL: "/a.png" }, []],
    ["text one byte over 1 MB", { text: `${"a".repeat(1024 * 1024 - 1)}é` }, ["text"]],
    ["text of 3-byte characters just over 1 MB", { text: "€".repeat(349_526) }, ["text"]],
    ["replyToId a number", { replyToId: 5 }, ["replyToId"]],
    ["bad embed", { embeds: [{ type: "canvas", preview: {} }] }, ["embeds", 0, "preview", "kind"]],
  ])("%s", (_, input, path) => {
    expect(issuesOf(input).map((issue) => issue.path)).toContainEqual(path);
  });

  it("accepts text of exactly 1 MB, and text read through a getter", () => {
    expect(normalizePayload({ text: `${"a".repeat(1024 * 1024 - 2)}é` }).text).toHaveLength(1024 * 1024 - 1);
    let reads = 0;
    const viaGetter = Object.defineProperty({}, "text", {
      enumerable: true,
      get: () => {
        reads += 1;
        return "hi **there**";
      },
    });
    expect(normalizePayload(viaGetter).text).toBe("hi **there**");
    expect(reads).toBe(1);
  });

  it("lists every issue, not only the first", () => {
    expect(issuesOf({ text: 1, mediaUrls: [2], audioAsVoice: "yes" })).toHaveLength(3);
  });

  it("throws when structured and textual media together exceed 100", () => {
    const text = Array.from({ length: 60 }, (_, i) => `MEDIA:/t/${i}.png`).join("\n");
    const mediaUrls = Array.from({ length: 60 }, (_, i) => `/s/${i}.png`);
    expect(() => normalizePayload({ text, mediaUrls })).toThrow(PayloadError);
  });
});

describe("normalizePayload merging", () => {
  it("puts structured media first, then media from the text, deduplicated by identity", () => {
    const payload = normalizePayload(
      {
        text: "hi\nMEDIA:./a.png\nMEDIA:https://example.com/b.png",
        mediaUrls: [" /w/a.png ", ""],
        mediaUrl: "file:///w/c.png",
      },
      { workspaceDir: "/w" },
    );
    expect(payload).toEqual({
      text: "hi",
      mediaUrls: ["/w/a.png", "file:///w/c.png", "https://example.com/b.png"],
      media: [],
      audioAsVoice: false,
      replyToCurrent: false,
      embeds: [],
    });
  });

  it("passes on remote URLs in the canonical form checkRemoteMediaUrl checked", () => {
    const payload = normalizePayload({
      text: "MEDIA: https://Example.com\\@127.0.0.1/a.png",
      mediaUrls: ["https://example.com\\@127.0.0.1/b.png"],
    });
    expect(payload.mediaUrls).toEqual([
      "https://example.com/@127.0.0.1/b.png",
      "https://example.com/@127.0.0.1/a.png",
    ]);
  });

  it("keeps every valid structured field", () => {
    const data = new Uint8Array([1, 2, 3]);
    const embed = {
      type: "canvas" as const,
      preview: {
        kind: "canvas" as const,
        surface: "assistant_message" as const,
        render: "url" as const,
        url: "/c",
      },
    };
    const payload = normalizePayload({
      text: "[embed ref='x' /] hi",
      media: [{ mimeType: "image/png", data, fileName: "a.png" }],
      embeds: [embed],
      audioAsVoice: true,
    });
    expect(payload.media[0]?.data).toBe(data);
    expect(payload.embeds).toHaveLength(2);
    expect(payload.embeds[0]).toEqual(embed);
    expect(payload.audioAsVoice).toBe(true);
  });

  it("ORs the flags; an explicit replyToId or null beats a tag", () => {
    expect(normalizePayload({ text: "[[audio_as_voice]] x" }).audioAsVoice).toBe(true);
    expect(normalizePayload({ text: "x", replyToCurrent: true }).replyToCurrent).toBe(true);
    expect(normalizePayload({ text: "[[reply_to:5]] x" }).replyToId).toBe("5");
    expect(normalizePayload({ text: "[[reply_to:5]] x", replyToId: "9" }).replyToId).toBe("9");
    expect(normalizePayload({ text: "[[reply_to:5]] x", replyToId: null }).replyToId).toBeNull();
    expect("replyToId" in normalizePayload({ text: "x" })).toBe(false);
    expect(normalizePayload({ text: "[[reply_to_current]] x" }, { currentMessageId: "77" }).replyToId).toBe(
      "77",
    );
  });

  it("is idempotent", () => {
    const once = normalizePayload({
      text: "a [[audio_as_voice]]\n\nMEDIA:/x.png caption\n[[reply_to:3]]",
      mediaUrl: "/y.png",
    });
    expect(normalizePayload(once)).toEqual(once);
  });

  it("accepts an empty payload", () => {
    expect(normalizePayload({})).toEqual({
      text: "",
      mediaUrls: [],
      media: [],
      audioAsVoice: false,
      replyToCurrent: false,
      embeds: [],
    });
  });
});

describe("normalizePayload on hostile objects", () => {
  it("reads own properties only: a polluted Object.prototype adds no media", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.mediaUrls = ["/etc/passwd"];
    proto.mediaUrl = "/etc/shadow";
    proto.filePath = "/etc/passwd";
    try {
      const payload = normalizePayload({
        text: "hi",
        media: [{ mimeType: "text/plain", data: new Uint8Array([104, 105]) }],
      });
      expect(payload.mediaUrls).toEqual([]);
      expect(payload.media).toEqual([{ mimeType: "text/plain", data: new Uint8Array([104, 105]) }]);
      // The copied attachment inherits nothing: the polluted field is not read through it.
      expect(payload.media[0]?.filePath).toBeUndefined();
    } finally {
      delete proto.mediaUrls;
      delete proto.mediaUrl;
      delete proto.filePath;
    }
  });

  it("ignores inherited fields of a payload built on another prototype object", () => {
    const payload = normalizePayload(
      Object.assign(Object.create({ mediaUrls: ["/etc/passwd"] }), { text: "x" }),
    );
    expect(payload.mediaUrls).toEqual([]);
  });

  it.each([
    [
      "a throwing getter",
      Object.defineProperty({ text: "x" }, "mediaUrls", {
        enumerable: true,
        get() {
          throw new Error("boom");
        },
      }),
      ["mediaUrls"],
    ],
    [
      "a Proxy whose ownKeys throws",
      new Proxy(
        { text: "x" },
        {
          ownKeys() {
            throw new Error("trap");
          },
        },
      ),
      [],
    ],
    [
      "a nested throwing getter",
      {
        media: [
          Object.defineProperty({ mimeType: "image/png" }, "data", {
            enumerable: true,
            get() {
              throw new TypeError("nope");
            },
          }),
        ],
      },
      ["media", 0, "data"],
    ],
  ])("%s gives a PayloadError naming the field", (_name, input, path) => {
    const error = (() => {
      try {
        normalizePayload(input as never);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(PayloadError);
    expect((error as PayloadError).issues[0]?.path).toEqual(path);
    expect((error as PayloadError).message).toMatch(/threw/);
  });
});

describe("normalizePayload: one media in two forms (protocol.md, 'One media, whatever its form')", () => {
  const png = (more: Partial<MediaAttachment>): MediaAttachment => ({ mimeType: "image/png", ...more });

  it("drops an attachment whose filePath a MEDIA: line names (./ against workspaceDir), keeping the reference", () => {
    const payload = normalizePayload(
      { text: "Hi\nMEDIA:./x.png", media: [png({ filePath: "/ws/x.png" })] },
      { workspaceDir: "/ws" },
    );
    expect(payload.mediaUrls).toEqual(["./x.png"]);
    expect(payload.media).toEqual([]);
  });

  it("drops an attachment whose sourceUrl a reference names (canonical URL), and repeats among attachments", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const payload = normalizePayload({
      mediaUrls: ["https://Example.com/a.png#top"],
      media: [
        png({ data: bytes, sourceUrl: "https://example.com:443/a.png" }),
        png({ filePath: "/ws/b.png" }),
        png({ filePath: "file:///ws/b.png", fileName: "again.png" }),
      ],
    });
    expect(payload.mediaUrls).toEqual(["https://example.com/a.png#top"]);
    expect(payload.media.map((item) => item.filePath)).toEqual(["/ws/b.png"]);
  });

  it("keeps inline bytes without a name (compared once loaded) and is idempotent", () => {
    const input = {
      text: "MEDIA:./x.png",
      media: [png({ data: new Uint8Array([1]) }), png({ base64: "AQ==" })],
    };
    const once = normalizePayload(input, { workspaceDir: "/ws" });
    expect(once.media.length).toBe(2);
    expect(normalizePayload(once, { workspaceDir: "/ws" })).toEqual(once);
  });
});
