import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasScheme } from "../../src/parse/media-ref.js";
import { neutralizeMediaDirectives } from "../../src/parse/neutralize.js";
import { normalizePayload } from "../../src/parse/normalize-payload.js";
import { parseReply } from "../../src/parse/parse-reply.js";
import { checkRemoteMediaUrl } from "../../src/parse/remote-url.js";
import type { ParseOptions } from "../../src/payload/types.js";

/**
 * Characters that break code that assumes one code unit per character or that indexes a
 * string with offsets found in a case-mapped copy: length-changing case mappings (`İ`
 * lower-cases to two code units, `ẞ`/`ß`/`ﬀ` upper-case to two), combining marks,
 * surrogate pairs (and a lone one), NBSP, zero-width and direction marks.
 */
const UNICODE = [
  "İ",
  "İİ",
  "ẞ",
  "ß",
  "ﬀ",
  "ﬃ",
  "ŉ",
  "ΐ",
  "K",
  "ſ",
  "e\u0301",
  "\u0301",
  "\u0338",
  "😀",
  "𝐀",
  "\ud83d",
  "\u00a0",
  "\u200b",
  "\u200c",
  "\u200d",
  "\ufeff",
  "\u200e",
  "\u200f",
  "\u202e",
  "\u2028",
  "\u3000",
];

/** A short run of {@link UNICODE} pieces and arbitrary code points. */
const unicode = fc
  .array(fc.oneof(fc.constantFrom(...UNICODE), fc.string({ unit: "grapheme", maxLength: 2 })), {
    minLength: 1,
    maxLength: 6,
  })
  .map((pieces) => pieces.join(""));

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
        "Media:",
        "[[reply_to:",
        "[[audio_as_voice]]",
        '[embed ref="x" /]',
        "![i](https://example.com/i.png)",
        "MEDIA:/home/me/.ssh/id_rsa",
      ),
      fc.string({ maxLength: 6 }),
      unicode,
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

  it("parseReply(neutralizeMediaDirectives(x)) extracts no media, under every parse option", () => {
    fc.assert(
      fc.property(reply, options, (text, opts) => {
        expect(parseReply(neutralizeMediaDirectives(text), opts).mediaUrls).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it("words after a block embed survive, whatever precedes it", () => {
    fc.assert(
      fc.property(
        fc.array(unicode, { maxLength: 12 }),
        fc.constantFrom("embed", "EMBED", "Embed"),
        (before, name) => {
          const text = `${before.join(" ")} [${name} url="/x"]SECRET[/${name}] tail words`;
          const parsed = parseReply(text);
          expect(parsed.text).toContain("tail words");
          expect(parsed.text).not.toContain("SECRET");
        },
      ),
      runs,
    );
  });
});

describe("normalizePayload properties", () => {
  it("keeps one entry for a refused MEDIA: line when normalized again (found by the property below)", () => {
    const once = normalizePayload({ text: "MEDIA:A0:" });
    expect(once.refusedMedia).toHaveLength(1);
    expect(normalizePayload(once)).toEqual(once);
  });

  it("keeps one entry for a refused reference that ends the text with a Unicode space", () => {
    const once = normalizePayload({ text: "MEDIA:Media:\u3000" });
    expect(once.refusedMedia).toEqual([{ reference: "Media:", reason: "only https: URLs are allowed" }]);
    expect(normalizePayload(once)).toEqual(once);
  });

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
