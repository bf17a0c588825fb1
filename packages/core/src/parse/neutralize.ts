/**
 * `neutralizeMediaDirectives`: defuse `MEDIA:` lines and Markdown images in text from
 * outside (web pages, tool output) before a model sees it or it is echoed into a reply.
 */

/** `MEDIA:` in any ASCII case, matched in place (positions are offsets of the line itself). */
const MEDIA_TOKEN = /media:/gi;

/**
 * Insert `[neutralized] ` before `MEDIA:` (any case) on every line whose trimmed start
 * begins with it, keeping the indentation. A `MEDIA:` that follows a `]` or `)` (spaces and
 * tabs between) is neutralized too: removing a tag, embed or image before it would move it
 * to the start of its line. Other mid-line mentions are untouched; only LF separates lines.
 * Every Markdown image opening `![` becomes `!\[` (an escaped bracket: shown as written,
 * never lifted into media). Matching never uses a case-mapped copy of the text, whose
 * offsets may differ (`İ` lower-cases to two code units).
 */
export function neutralizeMediaDirectives(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const lead = line.length - line.trimStart().length;
      let out = "";
      let from = 0;
      for (const match of line.matchAll(MEDIA_TOKEN)) {
        const at = match.index;
        if (at === lead || followsClosing(line, at)) {
          out += `${line.slice(from, at)}[neutralized] `;
          from = at;
        }
      }
      return (out + line.slice(from)).replaceAll("![", "!\\[");
    })
    .join("\n");
}

function followsClosing(line: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i--;
  return i >= 0 && (line.charCodeAt(i) === 93 || line.charCodeAt(i) === 41);
}
