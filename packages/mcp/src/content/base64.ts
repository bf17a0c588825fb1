/**
 * Strict base64: the standard alphabet with `=` padding, nothing else. Used to check
 * image blocks coming in and tool arguments before a single byte is decoded.
 */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True when `value` is non-empty, padded, standard-alphabet base64 (no whitespace, no URL-safe characters). */
export function isStrictBase64(value: string): boolean {
  return value.length > 0 && value.length % 4 === 0 && BASE64.test(value);
}

/** Number of bytes strict base64 of this text decodes to (without decoding it). */
export function decodedLength(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}
