/**
 * Which IP addresses media may be fetched from. One classifier for the string-level URL
 * check (`checkRemoteMediaUrl`) and for every address a host name resolves to (the loader).
 */

/** Blocked IPv4 ranges as [network, prefix length]: every special-use block of RFC 6890 and its successors. */
const BLOCKED_V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation TEST-NET-2
  ["203.0.113.0", 24], // documentation TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, limited broadcast
];

const V4_RANGES = BLOCKED_V4.map(([net, bits]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { net: (parseIPv4(net) ?? 0) & mask, mask };
});

/**
 * Parse canonical dotted-decimal IPv4 (`a.b.c.d`, no leading zeros) to an unsigned 32-bit
 * number; anything else (legacy spellings included) is `undefined`.
 */
function parseIPv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

function isBlockedV4(value: number): boolean {
  return V4_RANGES.some(({ net, mask }) => (value & mask) >>> 0 === net >>> 0);
}

/** Parse an IPv6 address (with `::` and an optional trailing dotted IPv4) into 8 groups. */
function parseIPv6(text: string): number[] | undefined {
  if (text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  let head = text;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".")) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail.push(v4 >>> 16, v4 & 0xffff);
    head = text.slice(0, lastColon + 1);
    // `::1.2.3.4` keeps its `::`; `1::2:1.2.3.4` ends in a single colon that joined the parts.
    if (head.endsWith(":") && !head.endsWith("::")) head = head.slice(0, -1);
  }
  const halves = head.split("::");
  if (halves.length > 2) return undefined;
  const groups = halves.map((half) => (half === "" ? [] : half.split(":")));
  const parsed: number[][] = [];
  for (const list of groups) {
    const numbers: number[] = [];
    for (const group of list) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
      numbers.push(Number.parseInt(group, 16));
    }
    parsed.push(numbers);
  }
  const [before = [], after] = parsed;
  const explicit = before.length + (after?.length ?? 0) + tail.length;
  if (after === undefined) return explicit === 8 ? [...before, ...tail] : undefined;
  if (explicit > 7) return undefined;
  return [...before, ...new Array<number>(8 - explicit).fill(0), ...after, ...tail];
}

/** The IPv4 address held in two 16-bit groups. */
function v4At(groups: readonly number[], index: number): number {
  return (groups[index] ?? 0) * 0x10000 + (groups[index + 1] ?? 0);
}

function isBlockedV6(g: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0] = g;
  // IPv4-mapped ::ffff:a.b.c.d: judged as the IPv4 address.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff)
    return isBlockedV4(v4At(g, 6));
  // NAT64 well-known prefix 64:ff9b::/96: judged as the embedded IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return isBlockedV4(v4At(g, 6));
  // Everything outside global unicast 2000::/3 is special: unspecified, loopback, IPv4-compatible,
  // discard 100::/64, local-use NAT64 64:ff9b:1::/48, SRv6 5f00::/16, ULA fc00::/7,
  // link-local fe80::/10, site-local fec0::/10, multicast ff00::/8, and the reserved rest.
  if ((g0 & 0xe000) !== 0x2000) return true;
  // IETF protocol assignments 2001::/23 (Teredo, benchmarking, ORCHID) and documentation 2001:db8::/32.
  if (g0 === 0x2001 && (g1 < 0x200 || g1 === 0xdb8)) return true;
  // Documentation 3fff::/20.
  if (g0 === 0x3fff && g1 < 0x1000) return true;
  // 6to4 2002::/16 embeds an IPv4 address in its next 32 bits.
  if (g0 === 0x2002 && isBlockedV4(v4At(g, 1))) return true;
  // ISATAP interface identifiers (…:0:5efe:a.b.c.d, …:200:5efe:a.b.c.d) embed one in the last 32 bits.
  if ((g4 === 0 || g4 === 0x200) && g5 === 0x5efe && isBlockedV4(v4At(g, 6))) return true;
  return false;
}

/**
 * Whether an IP address is off limits for fetching media: true for every special-use IPv4
 * range (loopback, private, link-local, CGNAT, benchmarking, unspecified, multicast,
 * reserved, documentation) and IPv6 range (loopback, unspecified, ULA, link-local,
 * site-local, multicast, documentation, reserved), for IPv6 forms that embed a blocked
 * IPv4 address (`::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, ISATAP), and for
 * anything that is not a canonical IP address (legacy IPv4 spellings, zone ids, brackets,
 * garbage): the check fails closed.
 */
export function isBlockedIp(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4 !== undefined) return isBlockedV4(v4);
  const v6 = parseIPv6(address);
  if (v6 !== undefined) return isBlockedV6(v6);
  return true;
}
