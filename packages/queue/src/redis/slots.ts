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

/** CRC16 of `length` bytes, the `i`-th being `byteAt(i)`. */
function crc16(length: number, byteAt: (i: number) => number): number {
  let crc = 0;
  for (let i = 0; i < length; i += 1)
    crc = ((crc << 8) ^ (TABLE[((crc >> 8) ^ byteAt(i)) & 0xff] as number)) & 0xffff;
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
  return crc16(hashed.length, (i) => hashed[i] as number) % SLOTS;
}

/** The first tag (base-36 numbers, ASCII) of each slot, worked out once per process. */
let firstTags: string[] | undefined;

function firstTagOfEachSlot(): string[] {
  if (firstTags !== undefined) return firstTags;
  const tags: string[] = new Array(SLOTS);
  for (let k = 0, missing = SLOTS; missing > 0; k += 1) {
    const tag = k.toString(36);
    const slot = crc16(tag.length, (i) => tag.charCodeAt(i)) % SLOTS;
    if (tags[slot] !== undefined) continue;
    tags[slot] = tag;
    missing -= 1;
  }
  firstTags = tags;
  return tags;
}

/**
 * The hash tag (without braces) of each of `partitions` partitions (at most {@link SLOTS}):
 * partition `n` gets the first of the tags `0`, `1`, … (base 36) whose slot is the middle
 * slot of the `n`-th of `partitions` equal slot ranges. Evenly spaced, so masters holding
 * equal contiguous ranges get numbers of partitions that differ by one at most.
 */
export function partitionTags(partitions: number): string[] {
  const tags = firstTagOfEachSlot();
  return Array.from(
    { length: partitions },
    (_, n) => tags[Math.floor(((n + 0.5) * SLOTS) / partitions)] as string,
  );
}
