import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasScheme } from "../../src/parse/media-ref.js";
import { neutralizeMediaDirectives } from "../../src/parse/neutralize.js";
import { normalizePayload } from "../../src/parse/normalize-payload.js";
import { parseReply } from "../../src/parse/parse-reply.js";
import { checkRemoteMediaUrl } from "../../src/parse/remote-url.js";
import type { ParseOptions } from "../../src/payload/types.js";

/** Text built from the pieces replies are made of, so generated input hits every rule. */
const reply = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "MEDIA:",
        "MEDIA: ",
        "media:",
        "/tmp/a.png",
        "./out/b.jpg",
        "~/c.ogg",
        "~root/x",
        "../../.env",
        "C:\\x\\d.png",
        "file:///tmp/e.png",
        "image.png",
        "https://example.com/f.png",
        "https://127.0.0.1/g.png",
        "http://example.com/h.png",
        '"',
        "'",
        "`",
        "```",
        "~~~",
        "    ",
        "\t",
        " ",
        "\n",
        "\r\n",
        "\n\n",
        "[[",
        "]]",
        "audio_as_voice",
        "reply_to:",
        "reply_to_current",
        "[embed ",
        "ref='v'",
        'url="/c"',
        "/]",
        "]",
        "[/embed]",
        "![a](",
        ")",
        "> ",
        "- ",
        "[neutralized] ",
        "🎉",
        "שלום",
        "\\",
      ),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 40 },
  )
  .map((pieces) => pieces.join(""));

const options = fc.record(
  {
    media: fc.constantFrom<"extract" | "strip" | "ignore">("extract", "strip", "ignore"),
    markdownImages: fc.boolean(),
    currentMessageId: fc.constant("m1"),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<ParseOptions>;

const runs = { numRuns: 300 };

describe("parseReply properties", () => {
  it("never throws, on any string", () => {
    fc.assert(
      fc.property(fc.oneof(reply, fc.string({ unit: "binary" })), options, (text, opts) => {
        parseReply(text, opts);
      }),
      runs,
    );
  });

  it("every extracted URL passes checkRemoteMediaUrl", () => {
    fc.assert(
      fc.property(reply, options, (text, opts) => {
        for (const url of parseReply(text, opts).mediaUrls)
          if (hasScheme(url)) expect(checkRemoteMediaUrl(url).ok).toBe(true);
      }),
      runs,
    );
  });

  it("no local path from a MEDIA: line shows in the text (outside code)", () => {
    const path = fc.constantFrom(
      "/p/u1.png",
      "./p/u2.png",
      "~/p/u3.png",
      "/p/u4 x.png",
      "/p/../u5.png",
      "~p/u6.png",
      "C:\\p\\u7.png",
    );
    const word = fc.stringMatching(/^[a-z ]{0,8}$/);
    const line = fc.oneof(
      word,
      fc
        .tuple(
          fc.constantFrom("MEDIA:", "MEDIA: ", "  MEDIA:"),
          fc.array(fc.oneof(path, word), { maxLength: 3 }),
          fc.constantFrom("", '"', "'"),
        )
        .map(([token, parts, quote]) => `${token}${quote}${parts.join(" ")}${quote}`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        const text = parseReply(lines.join("\n")).text;
        expect(text).not.toMatch(/[/\\]p[/\\]/);
      }),
      runs,
    );
  });

  it("parseReply(neutralizeMediaDirectives(x)) extracts no media", () => {
    fc.assert(
      fc.property(reply, (text) => {
        expect(parseReply(neutralizeMediaDirectives(text)).mediaUrls).toEqual([]);
      }),
      runs,
    );
  });
});

describe("normalizePayload properties", () => {
  it("is idempotent", () => {
    const input = fc.record(
      {
        text: reply,
        mediaUrls: fc.array(
          fc.constantFrom("/tmp/a.png", " ./a.png", "file:///tmp/a.png", "https://example.com/f.png", ""),
        ),
        mediaUrl: fc.constantFrom("/tmp/z.png", "https://EXAMPLE.com/f.png#x"),
        audioAsVoice: fc.boolean(),
        replyToId: fc.constantFrom("r1", null),
        replyToCurrent: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(input, options, (payload, opts) => {
        const once = normalizePayload(payload, { ...opts, workspaceDir: "/tmp" });
        expect(normalizePayload(once, { ...opts, workspaceDir: "/tmp" })).toEqual(once);
      }),
      runs,
    );
  });
});
