/**
 * Untrusted text (docs/protocol.md, "Untrusted text"): the reply is written by a model an
 * attacker may steer, so nothing in it may notify people, no link may show one place and open
 * another, no invisible or direction character may disguise a link's label, and no link
 * outside `http:`, `https:` and `mailto:` may be live. Judged on what the emulator recorded:
 * `mentions` (whom the platform notified) and the `link` spans with their targets.
 */
import { hasInvisible, isLinkable, labelMisleads } from "@outbox/core";
import { expect } from "vitest";
import type { CaseContext, CaseDefinition, ObservedMessage } from "../types.js";
import { links } from "./formatting.js";
import { expectDelivered, mediaPayload, normalize, send, visibleText } from "./helpers.js";

const always = (): true => true;

/** Every way a reply could ask a platform to notify people: rooms, channels, users, roles, Telegram user links. */
export const PINGS =
  "Hey @room @everyone @here <!channel> <!here> <!everyone> <@U0123ABCD> <!subteam^S0123ABCD> <@123456789012345678> <@&223456789012345678> @alice:example.org [you](tg://user?id=42)";

const RLO = "\u202e";

/** Links whose label names another place than they open, in the ways a reader is fooled. */
const LYING = [
  ["https://good.example/login", "https://evil.example/login"],
  ["good.example", "https://evil.example/account"],
  ["www.bank.example", "https://bank.example.evil.example/"],
] as const;

/** Labels disguised with direction overrides and invisible characters (after cleaning, still other hosts). */
const DISGUISED = [
  [`https://evil.example/reset${RLO}gro.elpmaxe.doog`, "https://evil.example/reset"],
  ["pay\u200bpal.example", "https://evil.example/pay"],
  ["\u2066sign\u00ad in\u2069\u200d", "https://good.example/sign-in"],
] as const;

/** Links to schemes that must never be live: Telegram's mentions, login tokens, proxies and bots, scripts, files. */
const INERT = [
  ["me", "tg://user?id=42"],
  ["log in", "tg://login?token=aGVsbG8"],
  ["proxy", "tg://proxy?server=evil.example&port=443&secret=00"],
  ["bot", "tg://resolve?domain=evilbot"],
  ["script", "javascript:alert(1)"],
  ["files", "ftp://files.example/a"],
] as const;

/** Markdown links `[label](url)`, space-separated. */
const markdownLinks = (pairs: ReadonlyArray<readonly [string, string]>): string =>
  pairs.map(([label, url]) => `[${label}](${url})`).join(" and ");

/** Each message and album member, for the fields every one of them must satisfy. */
const everyMessage = (observed: ObservedMessage[]): ObservedMessage[] =>
  observed.flatMap((m) => [m, ...(m.items ?? [])]);

/** Nobody was notified by any of these messages. */
function expectNoPings(observed: ObservedMessage[], what: string): void {
  for (const message of everyMessage(observed))
    expect(message.mentions, `${what}: whom the platform notified`).toBeUndefined();
}

/** No link span misleads: its label is the URL it opens, or names no other host, and holds no invisible character. */
function expectHonestLinks(observed: ObservedMessage[]): void {
  for (const message of observed)
    for (const { text, url } of links(message)) {
      expect(url, `link "${text}": its target`).toBeDefined();
      expect(isLinkable(url ?? ""), `link "${text}" → ${url}: a live scheme (http, https, mailto)`).toBe(
        true,
      );
      expect(labelMisleads(text, url ?? ""), `link "${text}" → ${url}: its label names another place`).toBe(
        false,
      );
      expect(hasInvisible(text), `link "${JSON.stringify(text)}": an invisible or direction character`).toBe(
        false,
      );
    }
}

/** A text reply that must arrive whole; what the platform gained. */
async function sendText(ctx: CaseContext, text: string): Promise<ObservedMessage[]> {
  const result = await send(ctx, { text });
  expectDelivered(result);
  return result.observed;
}

/** The untrusted-text cases. */
export const untrustedTextCases: CaseDefinition[] = [
  {
    id: "untrusted.mentions",
    checks:
      "Mentions in the reply notify nobody: `@room`, `@everyone`, `@here`, Slack's `<!channel>`, `<!here>`, `<@U…>`, Discord's `<@id>` and `<@&role>`, a Matrix user ID and a `tg://user` link, in a text message, in a caption (when the platform has captions) and in a live preview's edits (when it has edits); the words stay visible.",
    gate: "always (caption and edits when declared)",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const text = await sendText(ctx, PINGS);
      expectNoPings(text, "text message");
      expect(visibleText(text), "the words stay visible").toContain("@room @everyone @here");
      if (ctx.capabilities.caption !== null && ctx.capabilities.media.kinds.includes("image")) {
        const captioned = await send(ctx, await mediaPayload("png", "file", PINGS));
        expectDelivered(captioned);
        expectNoPings(captioned.observed, "caption");
      }
      if (ctx.capabilities.edits != null && ctx.adapter.preview) {
        const before = ctx.observe().length;
        const preview = ctx.adapter.preview(ctx.target);
        preview.update(`Writing… ${PINGS}`);
        const receipt = await preview.settle({ text: `Done. ${PINGS}` });
        expectDelivered({ receipt, observed: ctx.observe().slice(before) });
        expectNoPings(ctx.observe().slice(before), "live preview and its edits");
      }
    },
  },
  {
    id: "untrusted.lying-links",
    checks:
      "A link whose label is another URL or names another host (`[https://good.example/login](https://evil.example/login)`) is never shown as that label alone: every link span's text is its own URL or names no other host, and the real target is visible; the label's words stay visible.",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const observed = await sendText(ctx, markdownLinks(LYING));
      expectHonestLinks(observed);
      const shown = visibleText(observed);
      for (const [label, url] of LYING) {
        expect(shown, "the label stays visible").toContain(label);
        expect(shown, "the real target is visible").toContain(url);
      }
    },
  },
  {
    id: "untrusted.bidi",
    checks:
      "Direction overrides, isolates and marks and invisible characters (zero-width space and joiner, soft hyphen) never reach a link's label: no link span holds one, and a label they disguised is judged like any other (shown with its real target when it names another host).",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const observed = await sendText(ctx, markdownLinks(DISGUISED));
      expectHonestLinks(observed);
      const shown = visibleText(observed);
      expect(shown, "the real targets are visible").toContain("https://evil.example/reset");
      expect(shown).toContain("https://evil.example/pay");
      expect(normalize(shown.replace(/[^\x20-\x7e]/g, "")), "the words stay visible").toContain("sign in");
    },
  },
  {
    id: "untrusted.schemes",
    checks:
      "Links to any scheme but `http:`, `https:` and `mailto:` (`tg://user`, `tg://login`, `tg://proxy`, `tg://resolve`, `javascript:`, `ftp:`) are plain text: no link span opens one and nobody is notified; the labels stay visible.",
    gate: "always",
    applies: always,
    exercises: ["text"],
    async run(ctx) {
      const observed = await sendText(ctx, `${markdownLinks(INERT)} and [write](mailto:team@example.com)`);
      expectHonestLinks(observed);
      expectNoPings(observed, "inert links");
      const shown = visibleText(observed);
      for (const [label, url] of INERT) {
        expect(shown, "the label stays visible").toContain(label);
        expect(shown, "the inert target is never shown to tap").not.toContain(url);
      }
    },
  },
];
