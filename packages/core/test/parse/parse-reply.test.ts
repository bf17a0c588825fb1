import { describe, expect, it } from "vitest";
import { parseReply } from "../../src/parse/parse-reply.js";
import type { ParseOptions } from "../../src/payload/types.js";

interface Case {
  input: string;
  text: string;
  media?: string[];
  options?: ParseOptions;
}

function check({ input, text, media = [], options }: Case): void {
  const parsed = parseReply(input, options);
  expect(parsed.text).toBe(text);
  expect(parsed.mediaUrls).toEqual(media);
}

describe("spec examples", () => {
  it.each<Case>([
    { input: "hello\nMEDIA: https://example.com/a.png", text: "hello", media: ["https://example.com/a.png"] },
    { input: "MEDIA:http://example.com/a.png", text: "MEDIA:http://example.com/a.png" },
    { input: "MEDIA:../../.env", text: "" },
    { input: "Hello [[audio_as_voice]] world", text: "Hello world" },
    { input: "see [[reply_to:12345]] now", text: "see now" },
    { input: '[embed ref="cv_1" title="Status" /]', text: "" },
  ])("$input", check);

  it("reads the flags of the examples", () => {
    expect(parseReply("Hello [[audio_as_voice]] world").audioAsVoice).toBe(true);
    expect(parseReply("see [[reply_to:12345]] now").replyToId).toBe("12345");
    expect(parseReply('[embed ref="cv_1" title="Status" /]').embeds[0]?.preview.viewId).toBe("cv_1");
  });
});

describe("MEDIA: lines", () => {
  it.each<Case>([
    // what counts as a directive line
    { input: "media: /tmp/x.png", text: "media: /tmp/x.png" },
    { input: "the MEDIA: tag fails", text: "the MEDIA: tag fails" },
    { input: "   MEDIA:/tmp/x.png", text: "", media: ["/tmp/x.png"] },
    { input: "\tMEDIA:/tmp/x.png", text: "\tMEDIA:/tmp/x.png" },
    { input: "x\n\tMEDIA:/tmp/x.png", text: "x", media: ["/tmp/x.png"] },
    { input: "`MEDIA:/tmp/x.png`", text: "`MEDIA:/tmp/x.png`" },
    { input: "[[audio_as_voice]] MEDIA:/a.ogg", text: "", media: ["/a.ogg"] },
    { input: "MEDIA:", text: "MEDIA:" },
    // payloads
    { input: "MEDIA:/tmp/a.png here it is", text: "here it is", media: ["/tmp/a.png"] },
    { input: "MEDIA:/Users/a/My File.png", text: "", media: ["/Users/a/My File.png"] },
    { input: 'MEDIA: "/tmp/my file.png"', text: "", media: ["/tmp/my file.png"] },
    { input: "MEDIA: '/tmp/my file.png'", text: "", media: ["/tmp/my file.png"] },
    { input: "MEDIA: `/tmp/my file.png`", text: "", media: ["/tmp/my file.png"] },
    { input: "MEDIA:`/tmp/x.png`", text: "", media: ["/tmp/x.png"] },
    {
      input: "MEDIA: https://a.example.com/1.png https://a.example.com/2.png",
      text: "",
      media: ["https://a.example.com/1.png", "https://a.example.com/2.png"],
    },
    { input: "MEDIA:C:\\Users\\Asus X13\\pic.png", text: "", media: ["C:\\Users\\Asus X13\\pic.png"] },
    { input: "MEDIA:C:/Users/me/pic.png", text: "", media: ["C:/Users/me/pic.png"] },
    { input: "MEDIA:~/Pictures/cat.jpg", text: "", media: ["~/Pictures/cat.jpg"] },
    { input: "MEDIA:./out/a.png", text: "", media: ["./out/a.png"] },
    { input: "MEDIA:out/a.png", text: "", media: ["out/a.png"] },
    { input: "MEDIA:image.png", text: "", media: ["image.png"] },
    { input: "MEDIA:image.png /tmp/b.png", text: "image.png", media: ["/tmp/b.png"] },
    { input: "MEDIA:screenshot", text: "MEDIA:screenshot" },
    { input: "MEDIA:.env", text: "MEDIA:.env" },
    // cleaning
    { input: 'MEDIA:/p/img.png"}],"x":1', text: "", media: ["/p/img.png"] },
    { input: "MEDIA:[/tmp/a.png]", text: "", media: ["/tmp/a.png"] },
    { input: "MEDIA:(/tmp/a.png),", text: "", media: ["/tmp/a.png"] },
    { input: "MEDIA:{'/tmp/a.png'}", text: "", media: ["/tmp/a.png"] },
    { input: "MEDIA:file:///tmp/a.png", text: "", media: ["/tmp/a.png"] },
    { input: "MEDIA:file:///tmp/My%20File.png", text: "", media: ["/tmp/My File.png"] },
    { input: "MEDIA:file://localhost/tmp/a.png", text: "", media: ["/tmp/a.png"] },
    { input: "MEDIA:file:///C:/x/a.png", text: "", media: ["C:/x/a.png"] },
    { input: "MEDIA:file://evil.example.com/a.png", text: "" },
    { input: "MEDIA:file:///tmp/%2e%2e/etc/passwd", text: "" },
    // never valid; paths never leak
    { input: "MEDIA:/tmp/../etc/passwd", text: "" },
    { input: "MEDIA:./foo/../../x.png", text: "" },
    { input: "MEDIA:~/a/../../.ssh/id_rsa", text: "" },
    { input: "MEDIA:~root/.ssh/id_rsa", text: "" },
    { input: "MEDIA:..\\..\\secret.png", text: "" },
    { input: "MEDIA:\\\\server\\share\\a.png", text: "" },
    { input: `MEDIA:/${"a".repeat(4100)}.png`, text: "" },
    { input: "MEDIA:/tmp/a.png ../../x.png and text", text: "and text", media: ["/tmp/a.png"] },
    { input: "MEDIA:/tmp/a.png MEDIA:/tmp/b.png", text: "", media: ["/tmp/a.png"] },
    // remote URLs that fail the policy stay text
    { input: "MEDIA:https://localhost/a.png", text: "MEDIA:https://localhost/a.png" },
    { input: "MEDIA:https://127.0.0.1/a.png", text: "MEDIA:https://127.0.0.1/a.png" },
    { input: "MEDIA:javascript:alert(1)", text: "MEDIA:javascript:alert(1)" },
    {
      input: "MEDIA:https://example.com/a.png http://x.example.com/b.png",
      text: "http://x.example.com/b.png",
      media: ["https://example.com/a.png"],
    },
    // dedupe, order, several lines
    { input: "MEDIA:/a.png\nMEDIA:/a.png\nMEDIA:/b.png", text: "", media: ["/a.png", "/b.png"] },
    {
      input: "one\nMEDIA:/a.png\ntwo\nMEDIA:https://example.com/b.png\nthree",
      text: "one\ntwo\nthree",
      media: ["/a.png", "https://example.com/b.png"],
    },
    // CRLF, emoji, RTL
    { input: "hi\r\nMEDIA:/a.png\r\nbye\r\n", text: "hi\r\nbye", media: ["/a.png"] },
    { input: "🎉 done\nMEDIA:/tmp/🎉.png", text: "🎉 done", media: ["/tmp/🎉.png"] },
    { input: "שלום\nMEDIA:/tmp/תמונה.png", text: "שלום", media: ["/tmp/תמונה.png"] },
  ])("$input", check);

  it("strip removes directive lines and returns no media", () => {
    const parsed = parseReply("log line\nMEDIA:/tmp/a.png\nMEDIA:http://x/y", { media: "strip" });
    expect(parsed).toMatchObject({
      text: "log line",
      mediaUrls: [],
      segments: [{ type: "text", text: "log line" }],
    });
  });

  it("ignore leaves MEDIA: lines untouched", () => {
    expect(parseReply("a\nMEDIA:/tmp/a.png", { media: "ignore" })).toMatchObject({
      text: "a\nMEDIA:/tmp/a.png",
      mediaUrls: [],
    });
    expect(parseReply("a [[audio_as_voice]]\nMEDIA:/tmp/a.png", { media: "ignore" })).toMatchObject({
      text: "a\nMEDIA:/tmp/a.png",
      audioAsVoice: true,
    });
  });
});

describe("code is literal", () => {
  it.each<Case>([
    { input: "```\nMEDIA:/tmp/a.png\n```", text: "```\nMEDIA:/tmp/a.png\n```" },
    {
      input: "~~~\nMEDIA:/tmp/a.png [[audio_as_voice]]\n~~~\nMEDIA:/b.png",
      text: "~~~\nMEDIA:/tmp/a.png [[audio_as_voice]]\n~~~",
      media: ["/b.png"],
    },
    { input: "```\n``` not a close\nMEDIA:/a.png", text: "```\n``` not a close\nMEDIA:/a.png" },
    { input: "```\nx\n```   \nMEDIA:/a.png", text: "```\nx\n```", media: ["/a.png"] },
    { input: "````\n```\nMEDIA:/a.png\n````\nafter", text: "````\n```\nMEDIA:/a.png\n````\nafter" },
    { input: "    MEDIA:/tmp/a.png", text: "    MEDIA:/tmp/a.png" },
    { input: "intro\n\n    MEDIA:/tmp/a.png", text: "intro\n\n    MEDIA:/tmp/a.png" },
    { input: "\tMEDIA:/tmp/a.png [[audio_as_voice]]", text: "\tMEDIA:/tmp/a.png [[audio_as_voice]]" },
    { input: "prose\n    MEDIA:/tmp/a.png", text: "prose", media: ["/tmp/a.png"] },
    {
      input: "`[[reply_to:1]]` and ``[[audio_as_voice]]``",
      text: "`[[reply_to:1]]` and ``[[audio_as_voice]]``",
    },
    { input: "`a\n[[audio_as_voice]] b`", text: "`a\n[[audio_as_voice]] b`" },
    { input: "\\`[[audio_as_voice]]`", text: "\\` `" },
    { input: "\\`not code\\` [[audio_as_voice]]", text: "\\`not code\\`" },
    { input: "> ```\n> MEDIA:/a.png\n> ```", text: "> ```\n> MEDIA:/a.png\n> ```" },
    { input: "- item\n\n      [[audio_as_voice]]", text: "- item\n\n      [[audio_as_voice]]" },
    {
      input: '```\n[embed ref="x" /]\n![a](https://example.com/a.png)',
      text: '```\n[embed ref="x" /]\n![a](https://example.com/a.png)',
      options: { markdownImages: true },
    },
  ])("$input", check);
});

describe("tags", () => {
  it.each<Case & { voice?: boolean; replyToId?: string; current?: boolean }>([
    { input: "[[ reply_to : 123 ]] hi", text: "hi", replyToId: "123" },
    { input: "[[REPLY_TO_CURRENT]] hi", text: "hi", current: true },
    { input: "[[Audio_As_Voice]]", text: "", voice: true },
    { input: "[[\taudio_as_voice\t]] x", text: "x", voice: true },
    { input: "see[[reply_to_current]]now", text: "see now", current: true },
    { input: "a  b [[reply_to:1]] c   d", text: "a  b c   d", replyToId: "1" },
    { input: "a [[audio_as_voice]] [[reply_to:2]] b", text: "a b", voice: true, replyToId: "2" },
    { input: "[[reply_to:1]] [[reply_to:2]] x", text: "x", replyToId: "2" },
    { input: "[[reply_to:7]] [[reply_to_current]] x", text: "x", replyToId: "7", current: true },
    { input: "[[reply_to:]] x", text: "[[reply_to:]] x" },
    { input: "[[reply_to:a]b]] x", text: "[[reply_to:a]b]] x" },
    { input: "[[reply_to:  msg 42  ]]", text: "", replyToId: "msg 42" },
    { input: "[[[[audio_as_voice]]reply_to:1]]", text: "[[ reply_to:1]]", voice: true },
    { input: "[[audio_as_voice]]\nline", text: "line", voice: true },
    { input: "top\n\n[[audio_as_voice]]\n\nbottom", text: "top\n\nbottom", voice: true },
    { input: "[[unknown_tag]] stays", text: "[[unknown_tag]] stays" },
    { input: "`x`[[audio_as_voice]]", text: "`x`", voice: true },
    { input: "`x`[[reply_to:3]]`y`", text: "`x` `y`", replyToId: "3" },
    { input: "[[reply_to\n:1]]", text: "[[reply_to\n:1]]" },
  ])("$input", ({ input, text, voice = false, replyToId, current = false }) => {
    const parsed = parseReply(input);
    expect(parsed.text).toBe(text);
    expect(parsed.audioAsVoice).toBe(voice);
    expect(parsed.replyToId).toBe(replyToId);
    expect(parsed.replyToCurrent).toBe(current);
  });

  it("resolves reply_to_current to the current message when known; explicit beats current", () => {
    expect(parseReply("[[reply_to_current]] x", { currentMessageId: "99" }).replyToId).toBe("99");
    expect(parseReply("[[reply_to_current]] [[reply_to:5]] x", { currentMessageId: "99" }).replyToId).toBe(
      "5",
    );
    expect(parseReply("[[reply_to_current]] x").replyToId).toBeUndefined();
  });
});

describe("[embed …]", () => {
  const embed = (input: string, options?: ParseOptions) => parseReply(input, options).embeds;
  it("self-closing with ref: viewId, default canvas URL, title, height rules", () => {
    expect(embed('[embed ref="cv 1/2" title="Status" height="300" /]')).toEqual([
      {
        type: "canvas",
        preview: {
          kind: "canvas",
          surface: "assistant_message",
          render: "url",
          viewId: "cv 1/2",
          url: "/__openclaw__/canvas/documents/cv%201%2F2/index.html",
          title: "Status",
          preferredHeight: 300,
        },
      },
    ]);
    expect(embed("[embed ref='a' height='100' /]")[0]?.preview.preferredHeight).toBeUndefined();
    expect(embed("[embed ref='a' height='5000' /]")[0]?.preview.preferredHeight).toBe(1200);
    expect(embed("[embed ref='a' height='160' /]")[0]?.preview.preferredHeight).toBe(160);
    expect(embed("[embed ref='a' height='tall' /]")[0]?.preview.preferredHeight).toBeUndefined();
    expect(embed('[EMBED REF="a" TITLE="T" /]')[0]?.preview).toMatchObject({ viewId: "a", title: "T" });
  });

  it("honours canvasUrl", () => {
    expect(
      embed('[embed ref="x" /]', { canvasUrl: (ref) => `https://canvas.example.com/${ref}` })[0]?.preview.url,
    ).toBe("https://canvas.example.com/x");
  });

  it.each<Case & { count: number }>([
    { input: '[embed url="https://example.com/v" /]', text: "", count: 1 },
    { input: '[embed url="/canvas/1" /]', text: "", count: 1 },
    { input: '[embed url="//evil.example.com/x" /]', text: '[embed url="//evil.example.com/x" /]', count: 0 },
    { input: '[embed url="javascript:alert(1)" /]', text: '[embed url="javascript:alert(1)" /]', count: 0 },
    { input: '[embed url="data:text/html,x" /]', text: '[embed url="data:text/html,x" /]', count: 0 },
    { input: '[embed url="http://example.com" /]', text: '[embed url="http://example.com" /]', count: 0 },
    { input: '[embed title="no target" /]', text: '[embed title="no target" /]', count: 0 },
    { input: "[embed ref=unquoted /]", text: "[embed ref=unquoted /]", count: 0 },
    { input: '[view ref="x" /]', text: '[view ref="x" /]', count: 0 },
    { input: 'a [embed url="/x"]<script>alert(1)</script>[/embed] b', text: "a b", count: 1 },
    { input: 'top\n[embed url="/x"]\n<b>body</b>\n[/EMBED]\nbottom', text: "top\nbottom", count: 1 },
    { input: '[embed url="/x"] never closed', text: '[embed url="/x"] never closed', count: 0 },
    { input: '[embed url="/x"]`[/embed]` [/embed] after', text: "after", count: 1 },
    { input: 'x `[embed ref="a" /]`', text: 'x `[embed ref="a" /]`', count: 0 },
    {
      input: `${"İ".repeat(12)} [embed url="/x"]SECRET[/embed] tail words`,
      text: `${"İ".repeat(12)} tail words`,
      count: 1,
    },
    { input: 'ẞﬀ [EMBED url="/x"]SECRET[/Embed] tail', text: "ẞﬀ tail", count: 1 },
  ])("$input", ({ input, text, count }) => {
    const parsed = parseReply(input);
    expect(parsed.text).toBe(text);
    expect(parsed.embeds).toHaveLength(count);
  });
});

describe("Markdown images (opt-in)", () => {
  const on = { markdownImages: true };
  it.each<Case>([
    {
      input: "Look ![c](https://example.com/c.png) now",
      text: "Look now",
      media: ["https://example.com/c.png"],
      options: on,
    },
    { input: "Look ![c](https://example.com/c.png) now", text: "Look ![c](https://example.com/c.png) now" },
    {
      input: "![c](<https://example.com/a b.png>)",
      text: "![c](<https://example.com/a b.png>)",
      options: on,
    },
    {
      input: "![c](<https://example.com/c.png>)",
      text: "",
      media: ["https://example.com/c.png"],
      options: on,
    },
    {
      input: "![c](https://example.com/a_(1).png)",
      text: "",
      media: ["https://example.com/a_(1).png"],
      options: on,
    },
    {
      input: '![c](https://example.com/c.png "Title")',
      text: "",
      media: ["https://example.com/c.png"],
      options: on,
    },
    {
      input: "![c](https://example.com/c.png 'Title') x",
      text: "x",
      media: ["https://example.com/c.png"],
      options: on,
    },
    {
      input: "![c](https://example.com/c.png (Title))",
      text: "",
      media: ["https://example.com/c.png"],
      options: on,
    },
    {
      input: "![a [nested] alt](https://example.com/c.png)",
      text: "",
      media: ["https://example.com/c.png"],
      options: on,
    },
    { input: "![c](/tmp/c.png)", text: "![c](/tmp/c.png)", options: on },
    { input: "![c](file:///tmp/c.png)", text: "![c](file:///tmp/c.png)", options: on },
    { input: "![c](http://example.com/c.png)", text: "![c](http://example.com/c.png)", options: on },
    {
      input: "![c](https://169.254.169.254/c.png)",
      text: "![c](https://169.254.169.254/c.png)",
      options: on,
    },
    {
      input: "a ![1](https://example.com/1.png)\nMEDIA:/tmp/2.png\n![3](https://example.com/3.png)",
      text: "a",
      media: ["https://example.com/1.png", "/tmp/2.png", "https://example.com/3.png"],
      options: on,
    },
    { input: "`![c](https://example.com/c.png)`", text: "`![c](https://example.com/c.png)`", options: on },
    { input: "![[audio_as_voice]]", text: "!", options: on },
  ])("$input", check);
});

describe("text cleanup", () => {
  it.each<Case>([
    { input: "a\n\nMEDIA:/a.png\n\n\n\nb", text: "a\n\nb", media: ["/a.png"] },
    { input: "a\nMEDIA:/a.png\nb", text: "a\nb", media: ["/a.png"] },
    { input: "\n\nMEDIA:/a.png\n\nhello  \n\n", text: "hello", media: ["/a.png"] },
    { input: "a\n\n\n\nb [[audio_as_voice]]", text: "a\n\n\n\nb" },
    { input: "```\n\n\n\n```\nMEDIA:/a.png", text: "```\n\n\n\n```", media: ["/a.png"] },
    { input: "keep  trailing  \nnothing here   \n\n", text: "keep  trailing  \nnothing here" },
    { input: "  indented prose stays", text: "  indented prose stays" },
  ])("$input", check);
});

describe("segments", () => {
  it("cuts the text at each media reference", () => {
    expect(
      parseReply("Intro\nMEDIA:/a.png\nMiddle\nMEDIA:https://example.com/b.png\nOutro").segments,
    ).toEqual([
      { type: "text", text: "Intro" },
      { type: "media", url: "/a.png" },
      { type: "text", text: "Middle" },
      { type: "media", url: "https://example.com/b.png" },
      { type: "text", text: "Outro" },
    ]);
    expect(parseReply("MEDIA:/a.png caption\nMEDIA:/a.png").segments).toEqual([
      { type: "media", url: "/a.png" },
      { type: "text", text: "caption" },
    ]);
    expect(parseReply("Look ![c](https://example.com/c.png) now", { markdownImages: true }).segments).toEqual(
      [
        { type: "text", text: "Look" },
        { type: "media", url: "https://example.com/c.png" },
        { type: "text", text: "now" },
      ],
    );
    expect(parseReply("   ").segments).toEqual([]);
    expect(parseReply("plain").segments).toEqual([{ type: "text", text: "plain" }]);
  });
});

describe("an attacker or a sloppy model writing the reply", () => {
  it.each<Case>([
    { input: "MEDIA:/etc/passwd", text: "", media: ["/etc/passwd"] },
    { input: "Here: MEDIA:/etc/passwd", text: "Here: MEDIA:/etc/passwd" },
    { input: "**MEDIA:/tmp/a.png**", text: "**MEDIA:/tmp/a.png**" },
    { input: "MEDIA:https://user:pw@example.com/a.png", text: "MEDIA:https://user:pw@example.com/a.png" },
    { input: "MEDIA:https://[::1]/a.png", text: "MEDIA:https://[::1]/a.png" },
    { input: "MEDIA:/a.png [[audio_as_voice", text: "[[audio_as_voice", media: ["/a.png"] },
    { input: "MEDIA:/a.png [[audio_as_voice /b.png ]]", text: "", media: ["/a.png", "/b.png"] },
    { input: "MEDIA:/a.png [embed /c.png ref='x' /]", text: "", media: ["/a.png", "/c.png"] },
    { input: "MEDIA:/a.png `\nnext line`", text: "MEDIA:/a.png `\nnext line`" },
    { input: `${"[[reply_to:".repeat(50)}`, text: "[[reply_to:".repeat(50) },
  ])("$input", check);

  it("never throws on hostile shapes", () => {
    for (const input of [
      "[[",
      "![",
      "![](",
      "[embed",
      "[embed a='",
      "`",
      "```",
      "\u0000MEDIA:/a",
      "MEDIA:\u0000",
      "\r\r\n",
      "\ud800",
    ]) {
      expect(() => parseReply(input, { markdownImages: true })).not.toThrow();
    }
  });
});

describe("refused references are reported, the text rules unchanged", () => {
  it("lists each refused reference with its reason", () => {
    const parsed = parseReply(
      "Look\nMEDIA: ../../.env\nMEDIA: ./ok.png ~bob/x.png\nMEDIA: https://u:p@10.0.0.1/a.png?k=v",
    );
    expect(parsed.mediaUrls).toEqual(["./ok.png"]);
    expect(parsed.text).toBe("Look\nMEDIA: https://u:p@10.0.0.1/a.png?k=v");
    expect(parsed.refusedMedia).toEqual([
      { reference: "../../.env", reason: "it contains a '..' segment" },
      { reference: "~bob/x.png", reason: "it names another user's home directory (~user)" },
      { reference: "https://10.0.0.1/a.png?…", reason: "URL contains userinfo" },
    ]);
  });

  it("has no refusedMedia when nothing was refused, nor when media are stripped or ignored", () => {
    expect(parseReply("MEDIA: ./a.png\nMEDIA: is a word")).not.toHaveProperty("refusedMedia");
    expect(parseReply("MEDIA: ../x.png", { media: "strip" })).not.toHaveProperty("refusedMedia");
    expect(parseReply("MEDIA: ../x.png", { media: "ignore" })).not.toHaveProperty("refusedMedia");
  });
});
