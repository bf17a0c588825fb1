import { createRequire } from "node:module";
import type MarkdownIt from "markdown-it";
import type { StateCore, StateInline, Token } from "markdown-it";
import { type CodeSpanRange, codeSpanText } from "./code-span.js";
import { BLOCK_NESTING, flattenDeepNesting } from "./deep-nesting.js";
import { fastDelimiterScan } from "./delimiter-scan.js";
import { isSimpleInline } from "./simple-inline.js";
import { spoilerPlugin } from "./spoiler.js";

/**
 * Deepest inline nesting (links, emphasis). Kept at the preset's 20: link-label scanning
 * costs grow with it, and a text of a million `[` already takes about a second.
 */
const INLINE_NESTING = 20;

const require = createRequire(import.meta.url);

/**
 * markdown-it, loaded on the first parse rather than with core: a process whose replies
 * never reach the parser never pays its start-up (about a third of core's import). Its
 * CommonJS build is required so that the load stays synchronous, as parsing is.
 */
function markdownIt(): typeof MarkdownIt {
  // Where `require` resolves the `import` condition (test runners), it returns the ES module.
  const loaded = require("markdown-it") as typeof MarkdownIt | { default: typeof MarkdownIt };
  return "default" in loaded ? loaded.default : loaded;
}

/** A Markdown parser that builds its markdown-it instance on its first parse. */
export interface LazyMarkdownParser {
  /** markdown-it's token stream of `text` (simple inline content left unparsed, see {@link createMarkdownParser}). */
  parse(text: string, env: object): Token[];
}

/** {@link createMarkdownParser}, built on the first `parse` call. */
export function lazyMarkdownParser(spoilers: boolean): LazyMarkdownParser {
  let md: MarkdownIt | undefined;
  return {
    parse: (text, env) => {
      md ??= createMarkdownParser(spoilers);
      return md.parse(text, env);
    },
  };
}

let utils: MarkdownIt["utils"] | undefined;

/** markdown-it's helpers (its CommonJS build offers them on an instance only). */
export function markdownUtils(): MarkdownIt["utils"] {
  utils ??= new (markdownIt())("zero").utils;
  return utils;
}

/** markdown-it's `unescapeAll`: backslash escapes and character references decoded. */
export function unescapeAll(text: string): string {
  return markdownUtils().unescapeAll(text);
}

/**
 * A markdown-it parser for reply Markdown: CommonMark with raw HTML, GFM `~~strikethrough~~`,
 * no linkify, no typographer, destinations kept as written (escapes and character
 * references decoded, nothing percent-encoded, every scheme accepted: renderers judge
 * them), code spans carrying a {@link CodeSpanRange} and CommonMark's text. With
 * `spoilers`, `||spoiler||` too. Inline content that {@link isSimpleInline} accepts is left
 * unparsed, its token's `children` null, for the tree conversion to parse.
 */
export function createMarkdownParser(spoilers: boolean): MarkdownIt {
  const md = new (markdownIt())("commonmark");
  // One option serves both parsers: set it before each phase (parsing is synchronous).
  // `maxNesting` is a preset option missing from the types.
  md.core.ruler.before("block", "block_nesting", () => {
    // One level past the flattening rule's, so markdown-it itself never drops lines.
    Object.assign(md.options, { maxNesting: BLOCK_NESTING + 1 });
  });
  md.core.ruler.before("inline", "inline_nesting", () => {
    Object.assign(md.options, { maxNesting: INLINE_NESTING });
  });
  md.core.ruler.at("normalize", normalizeLineEndings);
  md.core.ruler.at("inline", inlineUnlessSimple);
  // The tree conversion merges adjacent text itself.
  md.core.ruler.disable("text_join");
  flattenDeepNesting(md);
  fastDelimiterScan(md);
  md.enable("strikethrough");
  md.inline.ruler.before("strikethrough", "long_tildes", longTildes);
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (text) => text;
  md.validateLink = () => true; // renderers judge schemes (a `javascript:` link renders as its text)
  const backticks = inlineRule(md, "backticks");
  if (backticks !== undefined) md.inline.ruler.at("backticks", recordingRange(backticks));
  if (spoilers) md.use(spoilerPlugin);
  return md;
}

/**
 * markdown-it's `inline` rule, leaving inline content of only text, emphasis, code spans and
 * line breaks unparsed (`children: null`): the tree conversion parses it straight into
 * nodes (see {@link isSimpleInline}), without a token per marker.
 */
function inlineUnlessSimple(state: StateCore): void {
  for (const token of state.tokens) {
    if (token.type !== "inline") continue;
    if (isSimpleInline(token.content)) token.children = null;
    else {
      token.children ??= [];
      state.md.inline.parse(token.content, state.md, state.env, token.children);
    }
  }
}

type InlineRule = (state: StateInline, silent: boolean) => boolean;

/** A built-in inline rule by name (markdown-it 14 keeps them in `Ruler.__rules__`, untyped). */
function inlineRule(md: MarkdownIt, name: string): InlineRule | undefined {
  const rules = (md.inline.ruler as unknown as { __rules__: Array<{ name: string; fn: InlineRule }> })
    .__rules__;
  return rules.find((rule) => rule.name === name)?.fn;
}

/**
 * markdown-it's `normalize` rule, the same text without rewriting it when there is nothing
 * to replace (its rule rebuilds the text at every `\n`): `\r\n` and `\r` become `\n`, NUL
 * becomes U+FFFD.
 */
function normalizeLineEndings(state: StateCore): void {
  let src = state.src;
  if (src.includes("\r")) src = src.replace(/\r\n?/g, "\n");
  if (src.includes("\0")) src = src.replace(/\0/g, "\uFFFD");
  state.src = src;
}

/** GFM strikethrough takes runs of two tildes only: a longer run is text (markdown-it would split it). */
function longTildes(state: StateInline, silent: boolean): boolean {
  let end = state.pos;
  while (end < state.posMax && state.src.charCodeAt(end) === 0x7e) end += 1;
  if (end - state.pos < 3) return false;
  if (!silent) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

/** Wrap the code span rule so each `code_inline` token knows its source range and CommonMark text. */
function recordingRange(rule: InlineRule): InlineRule {
  return (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x60) return false; // not a backtick: the rule would refuse
    const start = state.pos;
    const count = state.tokens.length;
    const matched = rule(state, silent);
    const token = state.tokens[state.tokens.length - 1];
    if (matched && !silent && state.tokens.length > count && token?.type === "code_inline") {
      const range: CodeSpanRange = { start, end: state.pos };
      token.meta = range;
      token.content = codeSpanText(
        state.src.slice(start + token.markup.length, state.pos - token.markup.length),
      );
    }
    return matched;
  };
}
