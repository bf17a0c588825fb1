/**
 * Discord Markdown → what a Discord client shows: the visible text and its formatting
 * spans (UTF-16 offsets). Follows Discord's rules for what the adapter and models write:
 * backslash escapes of punctuation, code blocks with a language, inline code (single or
 * double backticks), `**bold**`, `*italic*`/`_italic_`, `__underline__` (no span kind),
 * `~~strike~~`, `||spoiler||`, masked links `[label](url)`, `<url>` and bare URLs, `> `/`>>> `
 * quotes, `#`–`###` headings (shown bold), `-# ` subtext and `- ` bullets (shown `• `).
 */
import type { ObservedFormat, ObservedFormatKind } from "@outbox/core";

/** Visible text and its spans. */
export interface DecodedMarkdown {
  /** What the client shows. */
  text: string;
  /** Formatting spans over `text`, in order of offset. */
  formatting: ObservedFormat[];
}

interface Out {
  text: string;
  spans: ObservedFormat[];
}

const ESCAPABLE = /[^\p{L}\p{N}\s]/u;
const BARE_URL = /^https?:\/\/[^\s<]+[^<.,:;"')\]\s]/;
const ANGLE_URL = /^<(https?:\/\/[^\s>]+)>/;
const LANGUAGE = /^[\w#+.-]+$/;

/** Decode stored Discord Markdown. */
export function decodeDiscordMarkdown(content: string): DecodedMarkdown {
  const out: Out = { text: "", spans: [] };
  let quoteAll = false;
  let rest = content;
  while (rest !== "") {
    const fence = findFence(rest);
    const before = fence === undefined ? rest : rest.slice(0, fence.start);
    quoteAll = lines(before, out, quoteAll);
    if (fence === undefined) break;
    const start = out.text.length;
    out.text += fence.code;
    if (fence.code !== "")
      out.spans.push({
        kind: "pre",
        offset: start,
        length: fence.code.length,
        ...(fence.language ? { language: fence.language } : {}),
      });
    rest = rest.slice(fence.end);
  }
  const formatting = out.spans
    .filter((span) => span.length > 0)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text: out.text, formatting };
}

/** The next unescaped ``` code block. */
function findFence(s: string): { start: number; end: number; code: string; language?: string } | undefined {
  for (let i = 0; i < s.length; i += 1) {
    if (s[i] === "\\") {
      i += 1;
      continue;
    }
    if (!s.startsWith("```", i)) continue;
    const close = s.indexOf("```", i + 3);
    if (close < 0) return undefined;
    let body = s.slice(i + 3, close);
    let language: string | undefined;
    const newline = body.indexOf("\n");
    if (newline > 0 && LANGUAGE.test(body.slice(0, newline))) {
      language = body.slice(0, newline);
      body = body.slice(newline + 1);
    } else if (newline === 0) body = body.slice(1);
    return { start: i, end: close + 3, code: body.replace(/\n$/, ""), ...(language ? { language } : {}) };
  }
  return undefined;
}

/** Decode plain lines (no code block); returns whether a `>>> ` quote is open. */
function lines(region: string, out: Out, quoteAllOpen: boolean): boolean {
  let quoteAll = quoteAllOpen;
  const parts = region.split("\n");
  parts.forEach((raw, index) => {
    if (index > 0) out.text += "\n";
    let line = raw;
    let quote = quoteAll;
    if (line.startsWith(">>> ")) {
      quoteAll = quote = true;
      line = line.slice(4);
    } else if (line.startsWith("> ")) {
      quote = true;
      line = line.slice(2);
    }
    const start = out.text.length;
    let bold = false;
    const heading = /^#{1,3} /.exec(line);
    if (heading) {
      bold = true;
      line = line.slice(heading[0].length);
    } else if (line.startsWith("-# ")) line = line.slice(3);
    const bullet = /^(\s*)[-*] /.exec(line);
    if (bullet) {
      out.text += `${bullet[1]}• `;
      line = line.slice(bullet[0].length);
    }
    inline(line, out);
    if (bold) push(out, "bold", start, out.text.length);
    if (quote) {
      const last = out.spans.findLast((span) => span.kind === "quote");
      if (last && last.offset + last.length + 1 === start && out.text[start - 1] === "\n")
        last.length = out.text.length - last.offset;
      else push(out, "quote", start, out.text.length);
    }
  });
  return quoteAll;
}

function push(out: Out, kind: ObservedFormatKind, from: number, to: number, extra?: Partial<ObservedFormat>) {
  if (to > from) out.spans.push({ kind, offset: from, length: to - from, ...extra });
}

const DELIMITERS: Array<[string, ObservedFormatKind | null]> = [
  ["||", "spoiler"],
  ["**", "bold"],
  ["__", null],
  ["~~", "strike"],
  ["*", "italic"],
  ["_", "italic"],
];

/** Decode inline Markdown of one line. */
function inline(s: string, out: Out): void {
  let i = 0;
  outer: while (i < s.length) {
    const c = s[i] as string;
    if (c === "\\" && i + 1 < s.length && ESCAPABLE.test(s[i + 1] as string)) {
      out.text += s[i + 1];
      i += 2;
      continue;
    }
    if (c === "`") {
      const n = s.startsWith("``", i) ? 2 : 1;
      const close = s.indexOf("`".repeat(n), i + n);
      if (close > i + n) {
        let code = s.slice(i + n, close);
        if (n === 2 && code.startsWith(" ") && code.endsWith(" ") && code.length > 1)
          code = code.slice(1, -1);
        const start = out.text.length;
        out.text += code;
        push(out, "code", start, out.text.length);
        i = close + n;
        continue;
      }
    }
    for (const [delimiter, kind] of DELIMITERS) {
      if (!s.startsWith(delimiter, i)) continue;
      if (delimiter === "_" && i > 0 && /[\p{L}\p{N}]/u.test(s[i - 1] as string)) break;
      const close = findClose(s, i + delimiter.length, delimiter);
      if (close === undefined) break;
      const start = out.text.length;
      inline(s.slice(i + delimiter.length, close), out);
      if (kind) push(out, kind, start, out.text.length);
      i = close + delimiter.length;
      continue outer;
    }
    if (c === "[") {
      const link = maskedLink(s, i);
      if (link) {
        const start = out.text.length;
        inline(link.label, out);
        push(out, "link", start, out.text.length, { url: link.url });
        i = link.end;
        continue;
      }
    }
    const angle = c === "<" ? ANGLE_URL.exec(s.slice(i)) : null;
    const bare =
      c === "h" && (i === 0 || !/[\p{L}\p{N}]/u.test(s[i - 1] as string)) ? BARE_URL.exec(s.slice(i)) : null;
    if (angle || bare) {
      const url = angle ? (angle[1] as string) : (bare?.[0] as string);
      const start = out.text.length;
      out.text += url;
      push(out, "link", start, out.text.length, { url });
      i += (angle ?? bare)?.[0].length ?? 1;
      continue;
    }
    out.text += c;
    i += 1;
  }
}

/** Index of the delimiter closing one opened before `from`, skipping escapes, code and longer runs. */
function findClose(s: string, from: number, delimiter: string): number | undefined {
  for (let j = from; j < s.length; j += 1) {
    if (s[j] === "\\") {
      j += 1;
      continue;
    }
    if (s[j] === "`") {
      const close = s.indexOf("`", j + 1);
      if (close > j) j = close;
      continue;
    }
    if (delimiter.length === 1 && s.startsWith(delimiter.repeat(2), j)) {
      const close = findClose(s, j + 2, delimiter.repeat(2));
      if (close !== undefined) {
        j = close + 1;
        continue;
      }
    }
    if (!s.startsWith(delimiter, j) || j === from) continue;
    let end = j + delimiter.length;
    while (delimiter.length === 2 && s[end] === delimiter[0]) end += 1;
    const close = end - delimiter.length;
    if (delimiter === "_" && end < s.length && /[\p{L}\p{N}]/u.test(s[end] as string)) continue;
    return close;
  }
  return undefined;
}

/** A masked link `[label](url)` starting at `i`. */
function maskedLink(s: string, i: number): { label: string; url: string; end: number } | undefined {
  let depth = 0;
  for (let j = i; j < s.length; j += 1) {
    if (s[j] === "\\") {
      j += 1;
      continue;
    }
    if (s[j] === "[") depth += 1;
    if (s[j] === "]" && --depth === 0) {
      const target = /^\((<?)(https?:\/\/[^\s)>]+)>?\)/.exec(s.slice(j + 1));
      if (!target) return undefined;
      return { label: s.slice(i + 1, j), url: target[2] as string, end: j + 1 + target[0].length };
    }
  }
  return undefined;
}
