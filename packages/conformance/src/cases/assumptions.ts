/**
 * What each case assumes: the reply it sends and what a platform that differs declares. Kept
 * as one table so docs/conformance.md and every failure message read them from one place.
 */
import type { CaseAssumptions } from "../types.js";

const MEDIA_KIND =
  "a platform without this kind leaves it out of `capabilities.media.kinds` (or its type out of `media.formats`): the file then goes as a document with a `degraded` entry, or fails where no kind takes it";
const CAPTION =
  "a platform without captions declares `caption: null` (the text then goes as its own message before the media)";
const ALBUM = "a platform without albums declares `album: null`; other group rules go in `album.groups`";
const REPLIES = "a platform without replies declares `replies: false` (`undeclared.replies` then runs)";
const THREADS = "a platform without threads declares `threads: false` (`undeclared.threads` then runs)";
const VOICE =
  'a platform without voice notes declares `voice.mode: "as-audio"`; one whose voice notes take other formats lists them in `voice.formats`';
const EDITS =
  "a platform that cannot edit leaves `edits` out; edit limits go in `edits.minIntervalMs` and `edits.maxLength`";
const FORMAT =
  'a platform without formatting declares `text.format: "plain"`; one without a kind of formatting names it in `harness.formatGaps` with the reason';
const PACING =
  "declare the platform's limits in `capabilities.rateLimits`, as the platform counts them: `requests` says how many requests each kind of send makes (an upload and a post are `{ media: 2 }`)";
const RETRY_HINT =
  "nothing to declare; the wait a fault injects comes back to the millisecond, so an emulator whose platform gives whole seconds (Telegram's `retry_after`, Mattermost's `X-Ratelimit-Reset`) writes the fraction (`0.04`) and the adapter reads it as a number";
const DEDUPLICATES =
  "a transport whose platform deduplicates sends by key declares `deduplicatesByKey` (and `deduplicatesForMs`): the engine may then resend an attempt that failed ambiguously, and the case accepts a message delivered exactly once";
const MIXED =
  "a platform that sends text and files as one message declares `harness.combines.textAndFiles` with the reason: the reply may then arrive as one message";

const BY_URL =
  "a platform that fetches no URLs leaves `media.byUrl` out (the case is then n/a); its harness forwards `setup({ media })` into the adapter's media policy and reports `fetched()`";
const HOSTED =
  "applies to a platform that fetches URLs (`media.byUrl`) and takes no upload of images or documents (`media.uploads: false`, or an upload limit of 0 for the kind); its harness forwards `setup({ media })` and reports `fetched()`";

/** A text of about 2.5 chunks, for the split cases. */
const LONG =
  "a text of about 2.5 chunks (`text.chunkLength`, else `maxLength`) in five paragraphs of distinct words";

/** Each case id → what it assumes. Every case in the registry has an entry. */
export const caseAssumptions: Readonly<Record<string, CaseAssumptions>> = {
  "text.plain": { sends: "the sentence `Hello from the Outbox conformance suite.`" },
  "text.formatting": {
    sends: "one sentence with a bold, an italic, a struck and a code word and a labelled https link",
    differs: FORMAT,
  },
  "text.spoiler": { sends: "`The answer is ||forty-two|| of course.`", differs: FORMAT },
  "text.quote": { sends: "a paragraph, a one-line `>` quote, a paragraph", differs: FORMAT },
  "text.special-chars": {
    sends:
      "`<`, `>`, `&`, `*`, `_`, an escaped literal `<b>` tag, emoji, Hebrew and Arabic, 4-byte code points",
  },
  "text.long.split": { sends: LONG },
  "text.code.split": {
    sends: "a ```python code block of numbered `print(…)` lines, longer than one chunk",
    differs: FORMAT,
  },
  "text.lines": { sends: "paragraphs of lines split by single newlines and Markdown hard breaks" },
  "text.lists": { sends: "a bullet list with a nested level and a numbered list starting at 3" },
  "text.blocks": {
    sends: "a heading, a paragraph, a two-line quote, a fenced code block with an indented line, a paragraph",
    differs: FORMAT,
  },
  "text.nested-fence": {
    sends: "a four-backtick code block showing a three-backtick fence inside",
    differs: FORMAT,
  },
  "text.markdown-image": {
    sends: "text with a Markdown image `![…](https://…png)` on the fixture server",
    differs: "a platform that shows Markdown images itself declares `markdownImages: false`",
  },
  "untrusted.mentions": {
    sends:
      "text naming `@room`, `@everyone`, `@here`, Slack, Discord and Matrix mentions and a `tg://user` link; the same as a caption and in a live preview where declared",
  },
  "untrusted.lying-links": { sends: "links whose labels are other URLs or name other hosts" },
  "untrusted.bidi": {
    sends: "link labels disguised with direction overrides, isolates, marks and invisible characters",
  },
  "untrusted.schemes": { sends: "links to `tg://`, `javascript:` and `ftp:` targets" },
  "media.image.url": { sends: "a PNG by https URL, no text", differs: MEDIA_KIND },
  "media.pass-through": {
    sends: "a PNG by https URL, no text, with `media.passThrough` on",
    differs: BY_URL,
  },
  "media.pass-through.opt-in": {
    sends: "a PNG by https URL, no text, with the default media options",
    differs: BY_URL,
  },
  "media.pass-through.blocked": {
    sends: "`Pass-through check.` and the decoy's four refused URLs, with `media.passThrough` on",
    differs: BY_URL,
  },
  "media.hosted": {
    sends: "a PNG (a PDF where images are uploaded) from a local file, no text, with the suite's media host",
    differs: HOSTED,
  },
  "media.hosted.none": {
    sends:
      "`Host check.` and a PNG (a PDF where images are uploaded) from a local file, without a media host",
    differs: HOSTED,
  },
  "media.image.file": { sends: "a PNG from a local file, no text", differs: MEDIA_KIND },
  "media.image.base64": { sends: "a PNG inline as base64, no text", differs: MEDIA_KIND },
  "media.image.media-line": {
    sends: "`Here it is` then a `MEDIA:` line naming a PNG URL",
    differs: MEDIA_KIND,
  },
  "media.image.jpeg": { sends: "a JPEG from a local file, no text", differs: MEDIA_KIND },
  "media.animation": { sends: "a GIF, no text", differs: MEDIA_KIND },
  "media.video": { sends: "an MP4, no text", differs: MEDIA_KIND },
  "media.audio": { sends: "an MP3, no text", differs: MEDIA_KIND },
  "media.document": { sends: "a PDF, no text", differs: MEDIA_KIND },
  "caption.fits": { sends: "a PNG with the text `A tiny **blue** square`", differs: CAPTION },
  "caption.too-long": { sends: "a PNG with text one character over the caption limit", differs: CAPTION },
  "album.images": { sends: "two images (a PNG by URL, a JPEG from a file), no text", differs: ALBUM },
  "album.split": { sends: "`album.maxItems + 1` distinct images, no text", differs: ALBUM },
  "album.groups": { sends: "an image, a PDF, an image, no text", differs: ALBUM },
  "album.caption": { sends: "two images with the text `A tiny **blue** square`", differs: ALBUM },
  "album.none": {
    sends: "two images, no text",
    differs: "a platform with albums declares `album` (the `album.*` cases then run)",
  },
  "voice.ogg": { sends: "an OGG/Opus file with `audioAsVoice`", differs: VOICE },
  "voice.tag": { sends: "`[[audio_as_voice]]` and a `MEDIA:` line naming an OGG/Opus file", differs: VOICE },
  "voice.incompatible": {
    sends: "a WAV file with `audioAsVoice`",
    differs: "`media.formats` says which kinds take WAV (audio, else document, else a failure)",
  },
  "reply.text": { sends: "an anchor text, then a text replying to it", differs: REPLIES },
  "reply.media": { sends: "an anchor text, then a PNG replying to it", differs: REPLIES },
  "reply.album": { sends: "an anchor text, then two images replying to it", differs: REPLIES },
  "reply.voice": { sends: "an anchor text, then an OGG voice note replying to it", differs: REPLIES },
  "thread.text": {
    sends: "a text to `target.thread` (else to a fresh anchor message as thread root)",
    differs: THREADS,
  },
  "thread.media": { sends: "a PNG to the thread", differs: THREADS },
  "thread.album": { sends: "two images to the thread", differs: THREADS },
  "thread.voice": { sends: "an OGG voice note to the thread", differs: THREADS },
  "reply.split.first": {
    sends: "an anchor text, then a text of 1.5 chunks replying to it",
    differs: REPLIES,
  },
  "reply.mode.all": {
    sends: "an anchor text, then a text of 1.5 chunks replying to it with `replyMode: all`",
    differs: REPLIES,
  },
  "reply.mode.off": {
    sends: "an anchor text, then a text of 1.5 chunks and a PNG with `replyToId` and `replyMode: off`",
    differs: REPLIES,
  },
  "reply.missing": {
    sends: "a text replying to `unknownMessageId` (a message id of the platform's shape naming no message)",
    differs:
      "`replies: { unknownTarget: \"ignored\" }` for a platform that delivers such a reply with a dangling quote; the harness's `unknownMessageId` for the platform's id shape",
  },
  "thread.split": { sends: "a text of 1.5 chunks to the thread", differs: THREADS },
  "undeclared.replies": { sends: "a text with `replyToId` to a platform without replies" },
  "undeclared.threads": { sends: "a text to a thread target on a platform without threads" },
  "policy.blocked-url": {
    sends: "`Policy check.` with URLs to a private IP, a host resolving to one, `http:` and `localhost`",
  },
  "policy.blocked-path": { sends: "`Path check.` with a file outside `localRoots` and a `..` path" },
  "policy.media-line-path": {
    sends: "`Line check.` then a `MEDIA:` line naming a file outside `localRoots`",
  },
  "policy.media-line-url": { sends: "`URL check.` then a `MEDIA:` line naming a URL on the decoy host" },
  "fault.rate-limit": {
    sends: "`After the rate limit.` while the platform answers one 429 with `retry_after` 120 ms",
    differs: RETRY_HINT,
  },
  "fault.rate-limit.exhausted": {
    sends: "`Never delivered.` while every answer is a 429 with `retry_after` 40 ms",
    differs: RETRY_HINT,
  },
  "fault.server-error": { sends: "`Server trouble.` while every answer is a 503" },
  "fault.reset": {
    sends:
      "`Reset after it arrived.` while the platform processes it and drops the connection before answering, then `Reset.` while it drops every connection before processing",
    differs: DEDUPLICATES,
  },
  "fault.reject": { sends: "`Refused.` while the platform answers a 400 with a description" },
  "fault.partial.load": { sends: "a PDF, a file that does not exist and a PNG by URL, no text" },
  "fault.partial.platform": {
    sends: "a text of about 2.5 chunks whose first chunk the platform refuses (400)",
  },
  "idempotency.repeat": { sends: "`Once only.` with a PDF, twice with the same `idempotencyKey`" },
  "idempotency.resume": {
    sends:
      "a text of about 2.5 chunks whose first chunk the platform refuses, then the same with the same key",
  },
  "receipt.order": {
    sends: "a mixed reply: text over the caption limit, then a PNG (file), a PDF (URL) and an MP3 (file)",
    differs: MIXED,
  },
  "receipt.ids": {
    sends: "the mixed reply of `receipt.order`, then a text replying to each id in its receipt",
    differs: MIXED,
  },
  "pacing.concurrent": { sends: "`2 × burst + 1` short texts at once, to one target", differs: PACING },
  "pacing.media": {
    sends: "one PNG (a local file, no text), then `2 × burst + 1` of them at once, to one target",
    differs: PACING,
  },
  "capabilities.shape": { sends: "nothing: it reads `adapter.capabilities`" },
  "edits.progressive": {
    sends: "a live preview updated with a growing reply over 2.5 edit intervals, then settled",
    differs: EDITS,
  },
  "edits.not-modified": {
    sends: "a live preview updated with texts that render the same, then settled to it",
    differs: EDITS,
  },
  "edits.reply": { sends: "an anchor text, then a live preview with `replyToId`, settled", differs: EDITS },
  "edits.split": { sends: "a live preview settled into a reply longer than the text limit", differs: EDITS },
  "edits.media": { sends: "a live preview settled into a reply with a PNG", differs: EDITS },
  "edits.at-limit": {
    sends: "a live preview settled into a reply exactly `text.maxLength` characters long",
    differs: "a platform whose edits carry less than a new message declares `edits.maxLength`",
  },
  "untrusted.size.markers": { sends: "about one chunk of `*a*a*a…` marker runs" },
  "untrusted.size.alternating": { sends: "about one chunk of alternating Markdown markers" },
  "untrusted.size.quoted-lines": { sends: "about one chunk of `> x` lines" },
  "untrusted.nesting": { sends: "a text quoted 10,000 levels deep" },
  "capabilities.covered": {
    sends: "nothing: it reads the capabilities and which cases apply",
    differs:
      "a capability no running case can exercise is not declared (or the harness's skip for it is removed)",
  },
};
