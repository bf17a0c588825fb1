/**
 * Loading an https URL: one guarded GET to learn the type and size (see `probeBody`), and
 * an `open()` that fetches again under the same checks, pinning and caps.
 */
import { limitBytes } from "../byte-limit.js";
import type { ResolvedPolicy } from "../policy.js";
import { inspectMedia } from "../sniff/inspect.js";
import { isOggHead, OGG_TAIL_BYTES } from "../sniff/ogg-duration.js";
import type { LoadedMedia } from "../types.js";
import { asMediaError, startDeadline } from "./deadline.js";
import { describeUrl } from "./describe-url.js";
import { fetchGuarded, headerValue } from "./fetch-guarded.js";
import { remoteFileName } from "./file-name.js";
import { checkResponse, probeBody, readRangeTail, withIdleTimeout } from "./read-body.js";

async function* openRemote(ref: string, policy: ResolvedPolicy, size: number): AsyncGenerator<Uint8Array> {
  const label = describeUrl(ref);
  const limit = { ref, label, maxBytes: policy.maxBytes, expectedSize: size };
  const deadline = startDeadline(ref, label, policy);
  try {
    const response = await fetchGuarded(ref, policy, deadline.signal);
    checkResponse(response, limit);
    deadline.clearTimer();
    yield* limitBytes(withIdleTimeout(response, policy.timeoutMs, limit), limit);
  } catch (error) {
    throw asMediaError(ref, label, error, deadline.signal);
  } finally {
    deadline.dispose();
  }
}

/**
 * For an OGG file larger than the head, its tail (for the duration) through one `Range`
 * request under the same checks; undefined when the server does not do ranges or anything
 * fails (the duration is then simply unknown).
 */
async function fetchOggTail(
  ref: string,
  policy: ResolvedPolicy,
  signal: AbortSignal,
): Promise<Uint8Array | undefined> {
  try {
    const response = await fetchGuarded(ref, policy, signal, { range: `bytes=-${OGG_TAIL_BYTES}` });
    return await readRangeTail(response);
  } catch {
    return undefined;
  }
}

/** The WHATWG form of a URL (what every check reads), or the string trimmed when it does not parse. */
function canonical(raw: string): string {
  try {
    return new URL(raw.trim()).href;
  } catch {
    return raw.trim();
  }
}

/**
 * Loads an https URL under the policy. `fileName` overrides the name taken from the URL.
 * The URL is fetched, and kept as `source.url`, in its canonical form: the one checked.
 */
export async function loadRemote(
  raw: string,
  policy: ResolvedPolicy,
  options: { fileName?: string } = {},
): Promise<LoadedMedia> {
  const ref = canonical(raw);
  const label = describeUrl(ref);
  const deadline = startDeadline(ref, label, policy);
  try {
    const response = await fetchGuarded(ref, policy, deadline.signal);
    const probe = await probeBody(response, { ref, label, maxBytes: policy.maxBytes });
    const headerMime = headerValue(response.headers, "content-type");
    const tail =
      probe.tail ?? (isOggHead(probe.head) ? await fetchOggTail(ref, policy, deadline.signal) : undefined);
    const fileName =
      options.fileName ?? remoteFileName(response.url, headerValue(response.headers, "content-disposition"));
    const inspection = await inspectMedia({
      ref: label,
      head: probe.head,
      ...(tail === undefined ? {} : { tail }),
      ...(fileName === undefined ? {} : { fileName }),
      ...(headerMime === undefined ? {} : { headerMime }),
    });
    return {
      ...inspection,
      size: probe.size,
      source: { type: "url", url: ref },
      open: () => openRemote(ref, policy, probe.size),
    };
  } catch (error) {
    throw asMediaError(ref, label, error, deadline.signal);
  } finally {
    deadline.dispose();
  }
}
