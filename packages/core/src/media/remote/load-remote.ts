/**
 * Loading an https URL: one guarded GET to learn the type and size (see `probeBody`), and
 * an `open()` that fetches again under the same checks, pinning and caps.
 */
import { limitBytes } from "../byte-limit.js";
import type { ResolvedPolicy } from "../policy.js";
import { inspectMedia } from "../sniff/inspect.js";
import type { LoadedMedia } from "../types.js";
import { asMediaError, startDeadline } from "./deadline.js";
import { describeUrl } from "./describe-url.js";
import { fetchGuarded, headerValue } from "./fetch-guarded.js";
import { remoteFileName } from "./file-name.js";
import { checkResponse, probeBody, withIdleTimeout } from "./read-body.js";

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

/** Loads an https URL under the policy. `fileName` overrides the name taken from the URL. */
export async function loadRemote(
  ref: string,
  policy: ResolvedPolicy,
  options: { fileName?: string } = {},
): Promise<LoadedMedia> {
  const label = describeUrl(ref);
  const deadline = startDeadline(ref, label, policy);
  try {
    const response = await fetchGuarded(ref, policy, deadline.signal);
    const probe = await probeBody(response, { ref, label, maxBytes: policy.maxBytes });
    const headerMime = headerValue(response.headers, "content-type");
    const inspection = await inspectMedia({
      ref: label,
      head: probe.head,
      ...(probe.tail === undefined ? {} : { tail: probe.tail }),
      fileName:
        options.fileName ??
        remoteFileName(response.url, headerValue(response.headers, "content-disposition")),
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
