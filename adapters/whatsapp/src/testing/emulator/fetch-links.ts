/**
 * Media sent by `link`, fetched as Meta fetches it: after the message is accepted (Meta
 * answers the send at once and downloads the file afterwards, reporting a failure later in a
 * `failed` status webhook), over https, following no redirect, checking the type against
 * the message type's rules and the size against its limit. What was fetched (or why not) is
 * attached to the message, so a test is judged by the bytes the platform actually got.
 */
import { createHash } from "node:crypto";
import type { LookupFunction } from "node:net";
import { Agent, request } from "undici";
import { MEDIA_RULES, matches, sniff } from "./media-types.js";

/** Leading bytes kept for sniffing. */
const HEAD_BYTES = 64;

/** The outcome of fetching one message's link. */
export type LinkFetch =
  | { ok: true; url: string; mimeType: string; bytes: number; sha256: string }
  | { ok: false; url: string; error: string };

/** The parts of a stored message the fetcher reads and writes (a `StoredMessage` is one). */
export interface LinkedMessage {
  /** The message type (`image`, `video`, `audio`, `document`): whose types and size apply. */
  type: string;
  /** The https URL to fetch. */
  link?: string;
  /** Set to the outcome once the fetch is done. */
  fetched?: LinkFetch;
}

/** Options of {@link createLinkFetcher}. */
export interface LinkFetcherOptions {
  /** PEM certificate(s) trusted for the links (a local fixture host's); Node's roots otherwise. */
  ca?: string;
  /** Resolver for the links' host names (so a test name can point at 127.0.0.1). */
  lookup?: LookupFunction;
}

/** Fetches the links of media messages in the background; see {@link LinkFetcher.settled}. */
export interface LinkFetcher {
  /** Start fetching the link of `message` (a media message sent by `link`). */
  track(message: LinkedMessage): void;
  /** Resolves once every link tracked so far is fetched or failed. */
  settled(): Promise<void>;
  /** Every fetch so far, in the order the messages arrived. */
  fetches(): LinkFetch[];
  /** Stop the connections. */
  close(): Promise<void>;
}

/** A link fetcher over undici, trusting `ca` and resolving with `lookup`. */
export function createLinkFetcher(options: LinkFetcherOptions = {}): LinkFetcher {
  const agent = new Agent({
    connect: {
      ...(options.ca ? { ca: options.ca } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
    },
  });
  const pending: Array<Promise<void>> = [];
  const done: LinkFetch[] = [];

  async function fetchOne(message: LinkedMessage): Promise<LinkFetch> {
    const url = message.link ?? "";
    const rule = MEDIA_RULES[message.type];
    // undici follows no redirect unless told to: a link that redirects fails, as it should here.
    const response = await request(url, { dispatcher: agent });
    if (response.statusCode !== 200) {
      await response.body.dump();
      return { ok: false, url, error: `the link answered HTTP ${response.statusCode}` };
    }
    const hash = createHash("sha256");
    const head: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (bytes < HEAD_BYTES) head.push(chunk);
      bytes += chunk.byteLength;
      hash.update(chunk);
      if (rule !== undefined && bytes > rule.maxBytes) {
        response.body.destroy();
        return { ok: false, url, error: `${message.type} messages take at most ${rule.maxBytes} bytes` };
      }
    }
    const declared =
      String(response.headers["content-type"] ?? "")
        .split(";")[0]
        ?.trim()
        .toLowerCase() ?? "";
    const sniffed = sniff(Buffer.concat(head));
    // Documents take photos kept uncompressed too, as an uploaded document does.
    const accepted =
      message.type === "document" ? [...(rule?.types ?? []), "image/jpeg", "image/png"] : (rule?.types ?? []);
    if (!accepted.includes(declared) || !matches(declared, sniffed))
      return {
        ok: false,
        url,
        error: `${message.type} messages take ${accepted.join(", ")}; the link is ${declared || "untyped"} and its bytes ${sniffed ?? "of no known type"}`,
      };
    return { ok: true, url, mimeType: declared, bytes, sha256: hash.digest("hex") };
  }

  return {
    track(message) {
      const slot = done.length;
      done.push({ ok: false, url: message.link ?? "", error: "not fetched yet" });
      pending.push(
        fetchOne(message)
          .catch(
            (error: unknown): LinkFetch => ({ ok: false, url: message.link ?? "", error: String(error) }),
          )
          .then((result) => {
            done[slot] = result;
            message.fetched = result;
          }),
      );
    },
    settled: async () => {
      await Promise.all(pending);
    },
    fetches: () => [...done],
    close: () => agent.close(),
  };
}
