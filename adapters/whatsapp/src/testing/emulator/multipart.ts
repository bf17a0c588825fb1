/**
 * The `/media` upload body: `multipart/form-data` with the fields `messaging_product` and
 * `type` and one `file` part, streamed through a hash (the file is never held whole).
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** What arrived. */
export interface ReceivedForm {
  /** Text fields by name. */
  fields: Record<string, string>;
  /** The file part, when there was one. */
  file?: { fileName: string; contentType: string; bytes: number; sha256: string; head: Buffer };
}

const HEAD_BYTES = 64;
const MAX_HEADERS = 16 * 1024;

/** Read a multipart body; throws (with a reason) when it is malformed. */
export async function readForm(req: IncomingMessage, maxFileBytes: number): Promise<ReceivedForm> {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.headers["content-type"] ?? "");
  if (!/^multipart\/form-data/i.test(req.headers["content-type"] ?? "") || !match)
    throw new Error("the body is not multipart/form-data with a boundary");
  const delimiter = Buffer.from(`\r\n--${match[1] ?? match[2]}`);
  const form: ReceivedForm = { fields: {} };
  // A leading CRLF lets the first boundary match like every other one.
  let pending: Buffer = Buffer.from("\r\n");
  let part: Part | undefined;
  let ended = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (ended) continue;
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (part === undefined) {
        const at = pending.indexOf(delimiter);
        if (at < 0) break;
        const after = pending.subarray(at + delimiter.length);
        if (after.length < 2) break;
        if (after.subarray(0, 2).toString() === "--") {
          ended = true;
          break;
        }
        const end = after.indexOf("\r\n\r\n");
        if (end < 0) {
          if (after.length > MAX_HEADERS) throw new Error("part headers too long");
          break;
        }
        part = new Part(after.subarray(2, end).toString("utf8"));
        pending = after.subarray(end + 4);
        continue;
      }
      const at = pending.indexOf(delimiter);
      const safe = at >= 0 ? at : Math.max(0, pending.length - delimiter.length);
      part.take(pending.subarray(0, safe), maxFileBytes);
      pending = pending.subarray(safe);
      if (at < 0) break;
      part.finish(form);
      part = undefined;
    }
  }
  if (!ended) throw new Error("the body has no closing boundary");
  return form;
}

class Part {
  readonly name: string;
  readonly fileName: string | undefined;
  readonly contentType: string;
  private readonly hash = createHash("sha256");
  private chunks: Buffer[] = [];
  private head: Buffer = Buffer.alloc(0);
  private bytes = 0;

  constructor(headers: string) {
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers)?.[1] ?? "";
    this.name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? "";
    this.fileName = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    this.contentType = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? "";
  }

  take(chunk: Buffer, maxFileBytes: number): void {
    this.bytes += chunk.length;
    if (this.fileName === undefined) {
      if (this.bytes > MAX_HEADERS) throw new Error(`field ${this.name} is too long`);
      this.chunks.push(chunk);
      return;
    }
    if (this.bytes > maxFileBytes) throw new Error(`the file is over ${maxFileBytes} bytes`);
    if (this.head.length < HEAD_BYTES)
      this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    this.hash.update(chunk);
  }

  finish(form: ReceivedForm): void {
    if (this.fileName === undefined) {
      form.fields[this.name] = Buffer.concat(this.chunks).toString("utf8");
      return;
    }
    form.file = {
      fileName: this.fileName,
      contentType: this.contentType,
      bytes: this.bytes,
      sha256: this.hash.digest("hex"),
      head: this.head,
    };
  }
}
