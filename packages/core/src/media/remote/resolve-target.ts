/**
 * One hop's safety check: the URL string first, then every address its host resolves to.
 * The result names the one checked address the connection must go to (pinning).
 */
import type { LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { MediaError } from "../../errors/errors.js";
import { isBlockedIp } from "../../net/index.js";
import { checkRemoteMediaUrl } from "../../parse/remote-url.js";
import type { ResolvedPolicy } from "../policy.js";
import { describeUrl } from "./describe-url.js";

/** A URL whose host passed every check, with the address to connect to. */
export interface PinnedTarget {
  /** The parsed URL. */
  url: URL;
  /** Host name without brackets or trailing dot, lower-cased. */
  host: string;
  /** The checked address the connection is pinned to. */
  address: string;
}

function blocked(ref: string, url: string, why: string): MediaError {
  return new MediaError("blocked", `Media URL ${describeUrl(url)} was refused: ${why}.`, { ref });
}

/** All addresses of `host`; gives up when `signal` aborts (a resolver may never answer). */
function lookupAll(host: string, policy: ResolvedPolicy, signal: AbortSignal): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    policy.lookup(host, { all: true }, (error, result, family) => {
      signal.removeEventListener("abort", onAbort);
      if (error) reject(error);
      else if (typeof result === "string") resolve([{ address: result, family: family ?? isIP(result) }]);
      else resolve(result);
    });
  });
}

/**
 * Checks one URL from scratch: `https:` only, no userinfo, the string check
 * (`checkRemoteMediaUrl`) unless the host is in `allowHosts`, then every resolved address
 * against {@link isBlockedIp}. `ref` is the reference as the user gave it (for errors);
 * `signal` cancels the lookup.
 */
export async function resolveTarget(
  ref: string,
  raw: string,
  policy: ResolvedPolicy,
  signal: AbortSignal,
): Promise<PinnedTarget> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw blocked(ref, raw, "not a valid URL");
  }
  if (url.protocol !== "https:") throw blocked(ref, raw, `only https: URLs are fetched, not ${url.protocol}`);
  if (url.username !== "" || url.password !== "")
    throw blocked(ref, raw, "URLs with credentials are not fetched");
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  const exempt = policy.allowHosts.has(host);
  if (!exempt) {
    const check = checkRemoteMediaUrl(raw);
    if (!check.ok) throw blocked(ref, raw, check.reason);
  }
  let addresses: LookupAddress[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookupAll(host, policy, signal);
    } catch (error) {
      throw new MediaError("fetch-failed", `Media host ${host} could not be resolved.`, {
        ref,
        cause: error,
      });
    }
  }
  if (addresses.length === 0)
    throw new MediaError("fetch-failed", `Media host ${host} has no address.`, { ref });
  // A pinned connection needs an IP: a name here would be resolved again at connect time.
  const notIp = addresses.find((entry) => isIP(entry.address) === 0);
  if (notIp !== undefined) {
    throw blocked(ref, raw, `the resolver returned ${JSON.stringify(notIp.address)}, not an IP address`);
  }
  if (!exempt) {
    const bad = addresses.find((entry) => isBlockedIp(entry.address));
    if (bad !== undefined) {
      throw blocked(ref, raw, `${host} resolves to ${bad.address}, a private or special-use address`);
    }
  }
  const chosen = addresses.find((entry) => entry.family === 4) ?? addresses[0];
  return { url, host, address: chosen?.address ?? "" };
}
