import fc from "fast-check";

const word = fc.constantFrom(
  "alpha",
  "beta",
  "gamma",
  "a&b",
  "x<y",
  "1>0",
  "héllo",
  "😀",
  "مرحبا",
  "z",
  "delta-long-word",
);
const words = fc.array(word, { minLength: 1, maxLength: 12 }).map((list) => list.join(" "));
const inline: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: words },
  { weight: 1, arbitrary: words.map((w) => `**${w}**`) },
  { weight: 1, arbitrary: words.map((w) => `_${w}_`) },
  { weight: 1, arbitrary: words.map((w) => `~~${w}~~`) },
  { weight: 1, arbitrary: words.map((w) => `||${w}||`) },
  { weight: 1, arbitrary: words.map((w) => `**bold _both ${w}_**`) },
  { weight: 1, arbitrary: word.map((w) => `\`${w}\``) },
  { weight: 1, arbitrary: words.map((w) => `[${w}](https://e.x/p)`) },
);
const paragraph = fc.array(inline, { minLength: 1, maxLength: 10 }).map((list) => list.join(" "));
const lines = fc.array(words, { minLength: 1, maxLength: 12 });
const block = fc.oneof(
  { weight: 4, arbitrary: paragraph },
  { weight: 1, arbitrary: fc.array(paragraph, { minLength: 2, maxLength: 4 }).map((ps) => ps.join("\n")) },
  { weight: 1, arbitrary: words.map((w) => `## ${w}`) },
  { weight: 1, arbitrary: lines.map((ls) => `\`\`\`ts\n${ls.join("\n")}\n\`\`\``) },
  {
    weight: 1,
    arbitrary: fc
      .array(paragraph, { minLength: 1, maxLength: 5 })
      .map((ps) => ps.map((p) => `- ${p}`).join("\n")),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(paragraph, { minLength: 1, maxLength: 5 })
      .map((ps) => ps.map((p, i) => `${i + 1}. ${p}`).join("\n")),
  },
  { weight: 1, arbitrary: paragraph.map((p) => `> ${p}`) },
  { weight: 1, arbitrary: lines.map((ls) => `<div>\n${ls.join("\n")}\n</div>`) },
);

/** Generated reply Markdown: paragraphs, formatting, code, lists, quotes, escapes, emoji, RTL. */
export const markdownArbitrary = fc
  .array(block, { minLength: 1, maxLength: 12 })
  .map((blocks) => blocks.join("\n\n"));
