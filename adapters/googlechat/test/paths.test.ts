import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeName, formField } from "../src/client/paths.js";
import { escapeUrl } from "../src/render/escape.js";
import { clientMessageId } from "../src/transport/message-id.js";

// Differential: each fast path against the code it replaced, on hostile strings.
const pieces = [
  "spaces",
  "/",
  "AAAA",
  "messages",
  "client-0a1b",
  "_",
  "-",
  ".",
  "~",
  "!",
  "'",
  "(",
  ")",
  "*",
];
const hostile = [...'%?#&=+ |<>"\\^`{}[]:;,@$\n\t', "é", "😀", "\u200b", "\ud800", "\u0000"];
const strings = fc
  .array(fc.constantFrom(...pieces, ...hostile), { maxLength: 24 })
  .map((parts) => parts.join(""));

/** What each replaced: the name split, each segment encoded; the query through URLSearchParams. */
const oldName = (name: string) => name.split("/").map(encodeURIComponent).join("/");
const oldUrl = (url: string) => url.replace(/\|/g, "%7C").replace(/</g, "%3C").replace(/>/g, "%3E");
const outcome = (f: () => string) => {
  try {
    return f();
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
};

/** Every ASCII character and a few others, each inside an otherwise plain string. */
const oneEach = [
  ...Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code)),
  "é",
  "😀",
  "\u200b",
].map((char) => `client-${char}x`);

describe("Chat API paths and link targets write what the general encoders wrote", () => {
  it("one character of each kind, in a name, a query key and a query value", () => {
    for (const text of oneEach) {
      expect(encodeName(`spaces/${text}`)).toBe(oldName(`spaces/${text}`));
      expect(formField(text, "v")).toBe(new URLSearchParams([[text, "v"]]).toString());
      expect(formField("k", text)).toBe(new URLSearchParams([["k", text]]).toString());
      expect(escapeUrl(`https://a/${text}`)).toBe(oldUrl(`https://a/${text}`));
    }
  });

  it("a resource name", () => {
    fc.assert(
      fc.property(strings, (name) => {
        expect(outcome(() => encodeName(name))).toBe(outcome(() => oldName(name)));
      }),
      { numRuns: 3_000 },
    );
    expect(encodeName("spaces/AAAA/messages/a b")).toBe("spaces/AAAA/messages/a%20b");
  });

  it("a query field", () => {
    fc.assert(
      fc.property(strings, strings, (key, value) => {
        expect(formField(key, value)).toBe(new URLSearchParams([[key, value]]).toString());
      }),
      { numRuns: 3_000 },
    );
    expect(formField("updateMask", "text,cardsV2")).toBe("updateMask=text%2CcardsV2");
  });

  it("a link target", () => {
    fc.assert(
      fc.property(strings, (url) => {
        expect(escapeUrl(url)).toBe(oldUrl(url));
      }),
      { numRuns: 3_000 },
    );
  });

  it("a client message id", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (key) => {
        expect(clientMessageId(key)).toBe(
          `client-${createHash("sha256").update(key).digest("hex").slice(0, 40)}`,
        );
      }),
      { numRuns: 500 },
    );
  });
});
