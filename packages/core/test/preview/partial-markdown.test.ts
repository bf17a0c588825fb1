import { describe, expect, it } from "vitest";
import { closePartialMarkdown } from "../../src/preview/partial-markdown.js";

describe("closePartialMarkdown", () => {
  it.each([
    ["complete text stays as it is", "Hello **world**.\n\nBye", "Hello **world**.\n\nBye"],
    ["closes strong", "Say **hel", "Say **hel**"],
    ["closes nested delimiters innermost first", "a **b _c", "a **b _c_**"],
    ["closes strike and spoiler", "x ~~y and ||z", "x ~~y and ||z||~~"],
    ["drops a delimiter with nothing after it", "Say **", "Say"],
    ["closes an inline code span and ignores markers inside it", "run `a*b", "run `a*b`"],
    ["closes an open fence with its own marker", "```js\nconst a = 1;", "```js\nconst a = 1;\n```"],
    ["closes a tilde fence", "~~~\ncode\n", "~~~\ncode\n~~~"],
    ["a closed fence stays", "```\n**a\n```\n", "```\n**a\n```\n"],
    ["only the last paragraph is closed", "**a\n\nb *c", "**a\n\nb *c*"],
    ["list bullets and spaced stars are not emphasis", "* one\n* 2 * 3", "* one\n* 2 * 3"],
    ["snake_case is not emphasis", "call my_func", "call my_func"],
    ["escaped markers are text", "a \\*b", "a \\*b"],
  ])("%s", (_name, input, output) => {
    expect(closePartialMarkdown(input)).toBe(output);
  });
});
