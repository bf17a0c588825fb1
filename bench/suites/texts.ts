/**
 * The same reply as Markdown (what an assistant writes) and as hand-written Telegram HTML
 * (what a bare grammY sender would write), split as Telegram needs it (≤ 4 096 visible
 * characters per message).
 */

/** A reply of about `size` Markdown characters, with its HTML equivalent in messages. */
export function markdownReply(size: number): { markdown: string; html: string[] } {
  const markdown: string[] = [];
  const html: string[] = [];
  const visible: number[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const md = `Paragraph ${i}: **bold**, _emphasis_, \`code\`, a [link](https://example.com/${i}) and some words that carry what the reply means, as an assistant writes them.`;
    const h = `Paragraph ${i}: <b>bold</b>, <i>emphasis</i>, <code>code</code>, a <a href="https://example.com/${i}">link</a> and some words that carry what the reply means, as an assistant writes them.`;
    markdown.push(md);
    html.push(h);
    visible.push(h.replace(/<[^>]+>/g, "").length);
    length += md.length + 2;
  }
  const messages: string[] = [];
  let current: string[] = [];
  let used = 0;
  html.forEach((paragraph, i) => {
    const width = (visible[i] ?? 0) + 2;
    if (used + width > 4096 && current.length > 0) {
      messages.push(current.join("\n\n"));
      current = [];
      used = 0;
    }
    current.push(paragraph);
    used += width;
  });
  if (current.length > 0) messages.push(current.join("\n\n"));
  return { markdown: markdown.join("\n\n"), html: messages };
}

/** A short reply of about 200 characters, as Markdown and as HTML. */
export const shortReply = {
  markdown:
    "Here is **bold**, _italic_, `code` and a [link](https://example.com/x). Here is **bold**, _italic_, `code` and a [link](https://example.com/y). And a last plain sentence.",
  html: 'Here is <b>bold</b>, <i>italic</i>, <code>code</code> and a <a href="https://example.com/x">link</a>. Here is <b>bold</b>, <i>italic</i>, <code>code</code> and a <a href="https://example.com/y">link</a>. And a last plain sentence.',
};
