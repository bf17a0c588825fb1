/** The demo's resolver: the fixture host names of `conformanceMedia()`, plus a host that resolves to the cloud metadata address. */
import { lookup as dnsLookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { METADATA_HOST } from "./showcase.js";

/** `fallback` for every name except {@link METADATA_HOST}, which resolves to 169.254.169.254. */
export function demoLookup(fallback: LookupFunction = dnsLookup): LookupFunction {
  return ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    if (hostname !== METADATA_HOST)
      return (fallback as (...args: unknown[]) => void)(hostname, options, callback);
    const address = "169.254.169.254";
    if ((options as { all?: boolean }).all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  }) as LookupFunction;
}
