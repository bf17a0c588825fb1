/**
 * The pieces of a Chat API path: a resource name with each segment encoded and a query field
 * form-encoded, each written as it is when it holds only characters its encoder keeps (a
 * message's name and a create's query always do), so a send builds no arrays or
 * `URLSearchParams` for them.
 */
/** Characters `encodeURIComponent` keeps, and the slash: a name of these is its own path. */
const PLAIN_NAME = /^[\w.!~*'()/-]*$/;

/** A name (`spaces/A/messages/B`) as a path: each segment encoded, the slashes kept. */
export function encodeName(name: string): string {
  return PLAIN_NAME.test(name) ? name : name.split("/").map(encodeURIComponent).join("/");
}

/** Characters form encoding (`URLSearchParams`) keeps. */
const PLAIN_FIELD = /^[\w.*-]*$/;

/** One `key=value` of a query, form-encoded as `URLSearchParams` writes it. */
export function formField(key: string, value: string): string {
  return PLAIN_FIELD.test(key) && PLAIN_FIELD.test(value)
    ? `${key}=${value}`
    : new URLSearchParams([[key, value]]).toString();
}
