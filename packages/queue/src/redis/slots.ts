/**
 * Redis Cluster's key slots: which of the 16,384 slots a key lives in (CRC16 of its hash tag,
 * as the cluster computes it), and the hash tags of an outbox's partitions, chosen so that
 * partition `n` lands in the `n`-th of `partitions` equal slot ranges. A cluster made with
 * `redis-cli --cluster create` gives each master one contiguous range, so the partitions
 * spread evenly over the masters (and stay spread when slots are rebalanced in ranges).
 */

/** Slots of a Redis Cluster. */
export const SLOTS = 16_384;

/** CRC16/XMODEM (polynomial 0x1021), the cluster's key hash. */
const TABLE = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
  return crc & 0xffff;
});

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] as number)) & 0xffff;
  return crc;
}

const utf8 = new TextEncoder();

/**
 * The slot of `key`: only the text between the first `{` and the next `}` is hashed when
 * that text is not empty (the key's hash tag), else the whole key.
 */
export function slotOf(key: string): number {
  const bytes = utf8.encode(key);
  const open = bytes.indexOf(0x7b);
  const close = open < 0 ? -1 : bytes.indexOf(0x7d, open + 1);
  const hashed = close > open + 1 ? bytes.subarray(open + 1, close) : bytes;
  return crc16(hashed) % SLOTS;
}

/**
 * The hash tag (without braces) of each of `partitions` partitions (at most {@link SLOTS}):
 * partition `n` gets the first of the tags `0`, `1`, … (base 36) whose slot lies in the
 * `n`-th of `partitions` equal slot ranges. One pass over the candidates fills every range:
 * about `partitions × ln(partitions)` hashes.
 */
export function partitionTags(partitions: number): string[] {
  const tags: Array<string | undefined> = new Array(partitions);
  let missing = partitions;
  for (let k = 0; missing > 0; k += 1) {
    const tag = k.toString(36);
    // The range `slot` lies in: the last n whose range starts at or before it.
    const n = Math.ceil(((slotOf(tag) + 1) * partitions) / SLOTS) - 1;
    if (tags[n] !== undefined) continue;
    tags[n] = tag;
    missing -= 1;
  }
  return tags as string[];
}
