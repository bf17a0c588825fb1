/**
 * A strict `multipart/form-data` reader for platform emulators (RFC 7578), so that a body
 * every real parser reads the same way is the only kind an emulator accepts. Part headers
 * follow RFC 7578 and RFC 2183: a `form-data` disposition whose parameter values are tokens
 * or quoted strings. Where real parsers differ it refuses, and where they agree it does as
 * they do:
 * - a repeated parameter: the LAST one wins (as in Telegram's and most parsers), so a
 *   `name=chat_id` injected after a file name renames the part;
 * - a `;` or `\` inside a quoted value is refused: Telegram's parser cuts values at every
 *   `;`, quotes or not, and keeps backslashes that others read as escapes;
 * - `filename*` is refused (RFC 7578 §4.2 forbids it), and so are an unquoted value outside
 *   the token grammar, control characters, folded header lines and a missing `name`.
 *
 * The body streams through: parts go to sinks as they arrive, never held whole unless a
 * sink keeps them.
 */
import { createHash } from "node:crypto";

/** A body that is not strict `multipart/form-data`; the message says what is wrong. */
export class StrictMultipartError extends Error {
  override name = "StrictMultipartError";
}

/** What a part's headers say. */
export interface MultipartPartHead {
  /** The disposition's `name`. */
  name: string;
  /** The disposition's `filename`, when the part is a file (it may be `""`). */
  fileName?: string;
  /** The part's `Content-Type`, when given. */
  contentType?: string;
}

/** Where a part's bytes go. */
export interface MultipartPartSink {
  /** A piece of the part's body, in order. */
  write(chunk: Buffer): void;
  /** The part is complete. */
  end(): void;
}

/** The `boundary` parameter of a `multipart/form-data` Content-Type, if it is one. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([0-9A-Za-z'()+_,./:=?-]{1,70}))\s*(?:;|$)/i.exec(
    contentType,
  );
  return match?.[1] ?? match?.[2];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Reads one parameter value at `at`: a token or a quoted string. Returns it and where it ends. */
function readValue(header: string, at: number): [string, number] {
  if (header[at] !== '"') {
    const end = header.slice(at).search(/[\s;]|$/) + at;
    const token = header.slice(at, end);
    if (!TOKEN.test(token))
      throw new StrictMultipartError(`parameter value "${token}" is neither a token nor a quoted string`);
    return [token, end];
  }
  const close = header.indexOf('"', at + 1);
  if (close < 0) throw new StrictMultipartError("unterminated quoted parameter value");
  const value = header.slice(at + 1, close);
  if (/[\\;]/.test(value))
    throw new StrictMultipartError(
      `quoted parameter value "${value}" holds a \`;\` or \`\\\`, which parsers read differently`,
    );
  return [value, close + 1];
}

/**
 * The parameters of a `form-data` Content-Disposition value, by lower-cased name, the last of
 * a repeated name winning. Throws {@link StrictMultipartError} on anything outside RFC 7578.
 */
export function parseFormDataDisposition(value: string): Map<string, string> {
  if (/[^\P{Cc}\t]/u.test(value))
    throw new StrictMultipartError("control character in the Content-Disposition header");
  const type = /^\s*form-data\s*/i.exec(value);
  if (type === null) throw new StrictMultipartError(`disposition "${value}" is not form-data`);
  const params = new Map<string, string>();
  let at = type[0].length;
  while (at < value.length) {
    const param = /^;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*/.exec(value.slice(at));
    if (param === null)
      throw new StrictMultipartError(`malformed Content-Disposition parameters "${value.slice(at)}"`);
    const key = (param[1] as string).toLowerCase();
    if (key.endsWith("*")) throw new StrictMultipartError(`${key} is not allowed in form-data (RFC 7578)`);
    const [parsed, end] = readValue(value, at + param[0].length);
    params.set(key, parsed);
    at = end + (/^\s*/.exec(value.slice(end))?.[0].length ?? 0);
  }
  return params;
}

/** A part's header block read into what it says. */
function readPartHead(block: string): MultipartPartHead {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of block.split("\r\n")) {
    const field = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (field === null) throw new StrictMultipartError(`malformed part header "${line}"`);
    const name = (field[1] as string).toLowerCase();
    if (name === "content-disposition") disposition = field[2];
    else if (name === "content-type") contentType = field[2];
  }
  if (disposition === undefined) throw new StrictMultipartError("part without a Content-Disposition");
  const params = parseFormDataDisposition(disposition);
  const name = params.get("name");
  if (!name) throw new StrictMultipartError("part without a name");
  const fileName = params.get("filename");
  return {
    name,
    ...(fileName === undefined ? {} : { fileName }),
    ...(contentType === undefined ? {} : { contentType }),
  };
}

const MAX_HEADER_BYTES = 16 * 1024;
const HEADER_END = Buffer.from("\r\n\r\n");

type State = "opening" | "after" | "headers" | "body" | "done";

/**
 * Reads a `multipart/form-data` body strictly, handing each part to the sink `open` returns
 * for it (a stream, or chunks already in memory). The body must start with its boundary and
 * end with the closing one.
 *
 * @throws StrictMultipartError on any framing or header error.
 */
export async function readStrictMultipart(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  boundary: string,
  open: (head: MultipartPartHead) => MultipartPartSink,
): Promise<void> {
  const opening = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buf: Buffer = Buffer.alloc(0);
  let state = "opening" as State;
  let sink: MultipartPartSink | undefined;

  const step = (): boolean => {
    if (state === "opening") {
      if (buf.length < opening.length) return false;
      if (!buf.subarray(0, opening.length).equals(opening))
        throw new StrictMultipartError("body does not start with its boundary");
      buf = buf.subarray(opening.length);
      state = "after";
      return true;
    }
    if (state === "after") {
      if (buf.length < 2) return false;
      const tail = buf.subarray(0, 2).toString("latin1");
      buf = buf.subarray(2);
      if (tail === "--") state = "done";
      else if (tail === "\r\n") state = "headers";
      else throw new StrictMultipartError("malformed boundary line");
      return true;
    }
    if (state === "headers") {
      const end = buf.indexOf(HEADER_END);
      if (end < 0) {
        if (buf.length > MAX_HEADER_BYTES) throw new StrictMultipartError("part headers too long");
        return false;
      }
      sink = open(readPartHead(buf.subarray(0, end).toString("utf8")));
      buf = buf.subarray(end + HEADER_END.length);
      state = "body";
      return true;
    }
    if (state === "body") {
      const end = buf.indexOf(delimiter);
      if (end < 0) {
        const safe = buf.length - delimiter.length;
        if (safe > 0) {
          sink?.write(buf.subarray(0, safe));
          buf = buf.subarray(safe);
        }
        return false;
      }
      sink?.write(buf.subarray(0, end));
      sink?.end();
      buf = buf.subarray(end + delimiter.length);
      state = "after";
      return true;
    }
    return false;
  };

  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    if (state === "done") continue;
    buf = buf.length === 0 ? bytes : Buffer.concat([buf, bytes]);
    while (step()) {}
  }
  if (state !== "done") throw new StrictMultipartError("body ended before the closing boundary");
}

/** A file part as received: counted and hashed as it streamed. */
export interface ReceivedFilePart {
  /** The part's `name`. */
  name: string;
  /** The part's `filename`. */
  fileName: string;
  /** The part's `Content-Type`, when given. */
  contentType?: string;
  /** Bytes received. */
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  /** The first bytes (up to `headBytes`), for sniffing. */
  head: Buffer;
  /** All the bytes, when the form was read with `keepFileBytes`. */
  data?: Buffer;
}

/** A whole form: text fields and file parts. */
export interface ReceivedForm {
  /** Text parts by name (a repeated name: the last). */
  fields: Map<string, string>;
  /** File parts in order. */
  files: ReceivedFilePart[];
}

/** Limits of {@link readStrictForm}. */
export interface ReadFormOptions {
  /** Leading bytes of each file kept in `head`. Default 64 KiB. */
  headBytes?: number;
  /** Largest text field. Default 1 MiB. */
  maxFieldBytes?: number;
  /** Largest file part. Default unlimited. */
  maxFileBytes?: number;
  /** Keep every file's bytes in `data` (for emulators that store them). Default false. */
  keepFileBytes?: boolean;
}

/**
 * Reads a whole form strictly ({@link readStrictMultipart}): text fields as UTF-8, file
 * parts streamed through a hash with their first bytes kept.
 *
 * @throws StrictMultipartError on a malformed body or a part over its limit.
 */
export async function readStrictForm(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  boundary: string,
  options: ReadFormOptions = {},
): Promise<ReceivedForm> {
  const headBytes = options.headBytes ?? 64 * 1024;
  const maxField = options.maxFieldBytes ?? 1024 * 1024;
  const maxFile = options.maxFileBytes ?? Number.POSITIVE_INFINITY;
  const form: ReceivedForm = { fields: new Map(), files: [] };
  await readStrictMultipart(body, boundary, (part) => {
    const chunks: Buffer[] = [];
    const hash = createHash("sha256");
    let head: Buffer = Buffer.alloc(0);
    let size = 0;
    const isFile = part.fileName !== undefined;
    const limit = isFile ? maxFile : maxField;
    return {
      write(chunk) {
        size += chunk.length;
        if (size > limit) throw new StrictMultipartError(`part "${part.name}" is over ${limit} bytes`);
        if (!isFile || options.keepFileBytes) chunks.push(Buffer.from(chunk));
        if (!isFile) return;
        hash.update(chunk);
        if (head.length < headBytes) head = Buffer.concat([head, chunk.subarray(0, headBytes - head.length)]);
      },
      end() {
        if (part.fileName === undefined) {
          form.fields.set(part.name, Buffer.concat(chunks).toString("utf8"));
          return;
        }
        form.files.push({
          name: part.name,
          fileName: part.fileName,
          ...(part.contentType === undefined ? {} : { contentType: part.contentType }),
          size,
          sha256: hash.digest("hex"),
          head,
          ...(options.keepFileBytes ? { data: Buffer.concat(chunks) } : {}),
        });
      },
    };
  });
  return form;
}
